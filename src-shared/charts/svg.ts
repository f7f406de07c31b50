/**
 * ECharts' SVG renderer writes a text's font-family as it is inside a double-quoted style
 * attribute, so a family in double quotes ("Segoe UI") ends the attribute early: an XML parser
 * (an .svg file opened on its own) refuses the document, and an HTML page drops the font.
 * Single quotes mean the same in CSS and keep the attribute whole.
 */
export function quoteSvgFonts(svg: string): string {
  return svg.replace(/font-family:[^;>]*;/g, (declaration) => declaration.replaceAll('"', "'"));
}
