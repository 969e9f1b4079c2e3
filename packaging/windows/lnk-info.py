#!/usr/bin/env python3
"""Prints what a Windows shortcut (.lnk) points to, as JSON, for the installer check.

    packaging/windows/lnk-info.py FILE.lnk

Reads the Shell Link binary format ([MS-SHLLINK], Microsoft's Open Specifications, sections
2.1 ShellLinkHeader, 2.3 LinkInfo, 2.4 StringData): the target from LinkInfo's LocalBasePath
(its Unicode form when the header carries one), and the description, working folder,
arguments and icon from StringData. Exit status 1, with a reason, when the file is not a
shell link or has no local target path; every offset is checked against the file's size.
"""

import json
import struct
import sys

HEADER_SIZE = 0x4C
LINK_CLSID = bytes.fromhex("0114020000000000c000000000000046")

# LinkFlags (2.1.1)
HAS_ID_LIST = 1 << 0
HAS_LINK_INFO = 1 << 1
HAS_NAME = 1 << 2
HAS_RELATIVE_PATH = 1 << 3
HAS_WORKING_DIR = 1 << 4
HAS_ARGUMENTS = 1 << 5
HAS_ICON_LOCATION = 1 << 6
IS_UNICODE = 1 << 7


def fail(msg):
    print(f"lnk-info: {msg}", file=sys.stderr)
    sys.exit(1)


def u16(data, at):
    if at + 2 > len(data):
        fail(f"truncated at byte {at}")
    return struct.unpack_from("<H", data, at)[0]


def u32(data, at):
    if at + 4 > len(data):
        fail(f"truncated at byte {at}")
    return struct.unpack_from("<I", data, at)[0]


def cstring(data, at, end):
    """A NUL-terminated string in data[at:end], in the ANSI code page (decoded as cp1252)."""
    if not 0 <= at < end <= len(data):
        fail(f"string offset {at} outside its structure")
    stop = data.find(b"\0", at, end)
    if stop < 0:
        fail("string without its terminator")
    return data[at:stop].decode("cp1252", errors="replace")


def wstring(data, at, end):
    """A NUL-terminated UTF-16LE string in data[at:end]."""
    if not 0 <= at < end <= len(data):
        fail(f"string offset {at} outside its structure")
    pos = at
    while pos + 2 <= end:
        if data[pos:pos + 2] == b"\0\0":
            return data[at:pos].decode("utf-16-le", errors="replace")
        pos += 2
    fail("Unicode string without its terminator")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip(), file=sys.stderr)
        sys.exit(2)
    with open(sys.argv[1], "rb") as f:
        data = f.read(1 << 20)
    if len(data) < HEADER_SIZE or u32(data, 0) != HEADER_SIZE or data[4:20] != LINK_CLSID:
        fail("not a shell link (header size or CLSID)")
    flags = u32(data, 0x14)
    pos = HEADER_SIZE
    if flags & HAS_ID_LIST:
        pos += 2 + u16(data, pos)
    info = {}
    if flags & HAS_LINK_INFO:
        size = u32(data, pos)
        end = pos + size
        if size < 0x1C or end > len(data):
            fail("LinkInfo's size runs past the file")
        header = u32(data, pos + 4)
        local_base = u32(data, pos + 16)
        if local_base:
            info["target"] = cstring(data, pos + local_base, end)
        if header >= 0x24:
            local_base_unicode = u32(data, pos + 28)
            if local_base_unicode:
                info["target"] = wstring(data, pos + local_base_unicode, end)
        pos = end
    width = 2 if flags & IS_UNICODE else 1
    for flag, key in [
        (HAS_NAME, "description"),
        (HAS_RELATIVE_PATH, "relative_path"),
        (HAS_WORKING_DIR, "working_dir"),
        (HAS_ARGUMENTS, "arguments"),
        (HAS_ICON_LOCATION, "icon"),
    ]:
        if flags & flag:
            count = u16(data, pos)
            raw = data[pos + 2:pos + 2 + count * width]
            if len(raw) != count * width:
                fail(f"{key} runs past the file")
            # Wine counts the terminating NUL as a character; Windows does not.
            info[key] = raw.decode("utf-16-le" if width == 2 else "cp1252", errors="replace").rstrip("\0")
            pos += 2 + count * width
    if "target" not in info:
        fail("no local target path (LinkInfo's LocalBasePath)")
    print(json.dumps(info, ensure_ascii=False))


if __name__ == "__main__":
    main()
