/**
 * Saving a file from the page: a Blob behind an <a download> that is clicked. The browser
 * saves it (or asks where, as set); the desktop app shows its save dialog for the download.
 */

/** How long an object URL outlives the click that started its download. */
const REVOKE_AFTER_MS = 60_000;

export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.append(a);
  try {
    a.click();
  } finally {
    a.remove();
    // Revoking at once can cancel the download in some browsers; the URL only holds memory.
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}

/** The bytes of a base64 string. */
export function base64Bytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A `data:<type>;base64,...` URL as a Blob of that type. */
export function dataUrlBlob(dataUrl: string): Blob {
  const match = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match) throw new Error('not a data URL');
  const [, type, base64, payload] = match;
  return new Blob([base64 ? base64Bytes(payload) : decodeURIComponent(payload)], { type });
}
