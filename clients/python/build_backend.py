"""The build backend of saikoro-client (PEP 517, and PEP 660 for ``pip install -e``).

The package is one module, saikoro_client.py, with no dependencies. This backend writes its
wheel (PEP 427: the module, METADATA, WHEEL, RECORD) with the standard library alone, so
``pip install <this folder>`` needs no setuptools or wheel from an index and works offline
(``--no-index``), and writes nothing into this folder (it may be read-only, inside an
installed npm package). The name and version come from pyproject.toml's [project] table.
"""

import base64
import hashlib
import os
import re
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
MODULE = "saikoro_client.py"


def _project():
    """name, version, summary and requires-python from pyproject.toml (simple key = "value" lines)."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as f:
        text = f.read()
    table = text.split("[project]", 1)[1].split("\n[", 1)[0]
    values = dict(re.findall(r'^([a-z-]+)\s*=\s*"([^"]*)"', table, re.M))
    return values["name"], values["version"], values.get("description", ""), values.get("requires-python", "")


def _dist_name():
    name, version, _, _ = _project()
    return re.sub(r"[-_.]+", "_", name), version


def _metadata():
    name, version, summary, requires_python = _project()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", f"Version: {version}", f"Summary: {summary}", "License: MIT"]
    if requires_python:
        lines.append(f"Requires-Python: {requires_python}")
    return "\n".join(lines) + "\n"


WHEEL = "Wheel-Version: 1.0\nGenerator: saikoro-client build_backend.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"


def _record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{path},sha256={digest},{len(data)}"


def _write_wheel(wheel_directory, files):
    dist, version = _dist_name()
    info = f"{dist}-{version}.dist-info"
    files = dict(files)
    files[f"{info}/METADATA"] = _metadata().encode("utf-8")
    files[f"{info}/WHEEL"] = WHEEL.encode("utf-8")
    record = [_record_line(path, data) for path, data in files.items()] + [f"{info}/RECORD,,"]
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode("utf-8")
    filename = f"{dist}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return filename


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    with open(os.path.join(HERE, MODULE), "rb") as f:
        return _write_wheel(wheel_directory, {MODULE: f.read()})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    """An editable install: a .pth file that puts this folder on sys.path."""
    dist, _ = _dist_name()
    return _write_wheel(wheel_directory, {f"{dist}.pth": (HERE + "\n").encode("utf-8")})


def build_sdist(sdist_directory, config_settings=None):
    import tarfile

    dist, version = _dist_name()
    base = f"{dist}-{version}"
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for name in ("pyproject.toml", "build_backend.py", MODULE):
            sdist.add(os.path.join(HERE, name), arcname=f"{base}/{name}")
        pkg_info = _metadata().encode("utf-8")
        import io

        member = tarfile.TarInfo(f"{base}/PKG-INFO")
        member.size = len(pkg_info)
        sdist.addfile(member, io.BytesIO(pkg_info))
    return filename
