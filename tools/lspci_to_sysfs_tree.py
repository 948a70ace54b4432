#!/usr/bin/env python3
"""Turn a published `lspci -tv` tree and `lspci -vvv -s ADDR` blocks into a sysfs tree.

Input: one text file as published (a hardware report, an issue), holding
  - one `lspci -tv` block (the tree: which function sits below which bridge),
  - any number of `lspci -vvv -s ADDR` blocks (run as root: class, NUMA node, the
    capability lists with their offsets, DevCtl, ACSCap/ACSCtl, ATSCtl, the driver),
  - optionally an `nvidia-smi topo -m` block whose "NIC Legend" names the RDMA devices.
Every block is found by its command line (`lspci -tv`, `lspci -vvv -s`, `nvidia-smi topo -m`)
and runs to the closing ``` fence.

Output (OUT/sys), the kernel's layout (drivers/pci/probe.c, pci-sysfs.c):
  devices/pciDDDD:BB/DDDD:BB:DD.F/…       one directory per function, nested below its bridges
  bus/pci/devices/ADDR                     a link to it
  …/ADDR/vendor                            from the vendor's name (the table below)
  …/ADDR/class                             bridges (lspci -tv draws them): 0x060400; functions
                                           with a -vvv block: from its class name; else none
  …/ADDR/numa_node                         the NUMA node a -vvv block printed for a function
                                           below the same host bridge (the kernel takes a
                                           device's node from its host bridge); else none
  …/ADDR/config                            functions with a -vvv block: 4096 bytes, zero except
                                           what lspci printed: the status register's capability
                                           bit, both capability lists (IDs, offsets and order as
                                           printed), Device Control, ACS Capability and Control,
                                           ATS Control; the vendor ID
  …/ADDR/current_link_{speed,width}        from LnkSta of a -vvv block
  …/ADDR/driver                            a link to bus/pci/drivers/NAME ("Kernel driver in use")
  …/ADDR/infiniband/NAME, class/infiniband/NAME
                                           the names of the NIC Legend (mlx5_N), given to the
                                           Mellanox functions in PCI address order (mlx5_core
                                           numbers them in probe order, which is bus order);
                                           ports/1/link_layer "Ethernet"

A line the converter cannot read, a capability name it does not know, a name that cannot be
a file name: an error naming the line; nothing is written outside OUT/sys.

Usage: lspci_to_sysfs_tree.py PUBLISHED OUT
"""

import os
import re
import sys


class ConvertError(Exception):
    pass


VENDORS = {  # pci.ids names as lspci prints them
    "NVIDIA Corporation": 0x10DE,
    "Mellanox Technologies": 0x15B3,
    "Advanced Micro Devices, Inc. [AMD/ATI]": 0x1002,
    "Advanced Micro Devices, Inc. [AMD]": 0x1022,
    "Intel Corporation": 0x8086,
    "Samsung Electronics Co Ltd": 0x144D,
    "HighPoint Technologies, Inc.": 0x1103,
    "ASPEED Technology, Inc.": 0x1A03,
    "ASMedia Technology Inc.": 0x1B21,
    "Kingston Technology Company, Inc.": 0x2646,
    "Broadcom / LSI": 0x1000,
    "PLX Technology, Inc.": 0x10B5,
}

CLASSES = {  # lspci's class names (pci.ids "C" lines) → class code
    "VGA compatible controller": 0x030000,
    "3D controller": 0x030200,
    "Display controller": 0x038000,
    "Ethernet controller": 0x020000,
    "Infiniband controller": 0x020700,
    "Non-Volatile memory controller": 0x010802,
    "RAID bus controller": 0x010400,
    "PCI bridge": 0x060400,
    "SATA controller": 0x010601,
    "USB controller": 0x0C0330,
    "Audio device": 0x040300,
}

CAPS = {  # conventional capability IDs by lspci's name
    "Power Management": 0x01, "Vital Product Data": 0x03, "MSI": 0x05,
    "Vendor Specific Information": 0x09, "Subsystem": 0x0D, "Express": 0x10,
    "MSI-X": 0x11, "SATA HBA": 0x12, "PCI Advanced Features": 0x13,
}

EXT_CAPS = {  # extended capability IDs by lspci's name
    "Advanced Error Reporting": 0x0001, "Virtual Channel": 0x0002, "Device Serial Number": 0x0003,
    "Power Budgeting": 0x0004, "Vendor Specific Information": 0x000B,
    "Access Control Services": 0x000D, "Alternative Routing-ID Interpretation (ARI)": 0x000E,
    "Address Translation Service (ATS)": 0x000F, "Single Root I/O Virtualization (SR-IOV)": 0x0010,
    "Multicast": 0x0012, "Page Request Interface (PRI)": 0x0013, "Physical Resizable BAR": 0x0015,
    "Transaction Processing Hints": 0x0017, "Latency Tolerance Reporting": 0x0018,
    "Secondary PCI Express": 0x0019, "Process Address Space ID (PASID)": 0x001B,
    "Downstream Port Containment": 0x001D, "L1 PM Substates": 0x001E,
    "Precision Time Measurement": 0x001F, "Data Link Feature": 0x0025,
    "Physical Layer 16.0 GT/s": 0x0026, "Lane Margining at the Receiver": 0x0027,
}

ACS_WORDS = ["SrcValid", "TransBlk", "ReqRedir", "CmpltRedir", "UpstreamFwd", "EgressCtrl", "DirectTrans"]
DEVCTL_FLAGS = {"CorrErr": 0, "NonFatalErr": 1, "FatalErr": 2, "UnsupReq": 3, "RlxdOrd": 4,
                "ExtTag": 8, "PhantFunc": 9, "AuxPwr": 10, "NoSnoop": 11, "FLReset": 15, "BrConfRtry": 15}


def blocks(lines, marker):
    """(first line number, lines) of every fenced block whose command line holds `marker`."""
    out = []
    i = 0
    while i < len(lines):
        if marker.search(lines[i]):
            start = i + 1
            j = start
            while j < len(lines) and not lines[j].startswith("```"):
                j += 1
            out.append((i + 1, lines[i], lines[start:j]))
            i = j
        i += 1
    return out


TOKEN = re.compile(r"\[([0-9a-f]{4}):([0-9a-f]{2})\]|([0-9a-f]{2})\.([0-7])")


def parse_tree(first, lines):
    """Functions as {address: (parent address or host bridge 'pciDDDD:BB', name)}."""
    funcs = {}
    order = []
    branch = {}  # column of a '+'/'\' → (parent, domain, bus)
    for n, line in enumerate(lines, first + 1):
        if not line.strip():
            continue
        last_bridge = None  # (address, domain, secondary bus) opened on this line
        pos = 0
        found = False
        for m in TOKEN.finditer(line):
            if m.start() < pos:
                continue
            found = True
            if m.group(1):  # a host bridge [DDDD:BB]
                dom, bus = m.group(1), m.group(2)
                host = f"pci{dom}:{bus}"
                rest = line[m.end():]
                k = m.end() + 1  # "-+-" or "-\-": the branch character
                if not rest.startswith(("-+-", "-\\-")):
                    raise ConvertError(f"line {n}: no branch after [{dom}:{bus}]")
                branch[k] = (host, dom, bus)
                pos = m.end()
                continue
            dev, fn = m.group(3), m.group(4)
            before = line[: m.start()]
            if before.endswith(("+-", "\\-")) and (m.start() - 2) in branch:
                parent, dom, bus = branch[m.start() - 2]
            elif before.endswith("--") and last_bridge is not None:
                parent, dom, bus = last_bridge
            else:
                raise ConvertError(f"line {n}: cannot tell where {dev}.{fn} hangs")
            addr = f"{dom}:{bus}:{dev}.{fn}"
            after = line[m.end():]
            br = re.match(r"-\[([0-9a-f]{2})(?:-[0-9a-f]{2})?\]", after)
            name = ""
            pos = m.end()
            if br:
                sec = br.group(1)
                last_bridge = (addr, dom, sec)
                pos = m.end() + br.end()
                tail = line[pos:]
                if tail.startswith(("--+-", "--\\-")):
                    branch[pos + 2] = (addr, dom, sec)
            else:
                name = after.strip()
            if addr in funcs:
                raise ConvertError(f"line {n}: {addr} twice")
            funcs[addr] = (parent, name, bool(br))
            order.append(addr)
        if not found:
            raise ConvertError(f"line {n}: not a line of lspci -tv")
    return funcs, order


def parse_vvv(first, command, lines):
    m = re.search(r"lspci -vvv -s ([0-9a-f:.]+)", command)
    while lines and lines[0].startswith("[sudo] password"):  # sudo's prompt, echoed into the paste
        lines = lines[1:]
        first += 1
    head = lines[0] if lines else ""
    hm = re.match(r"([0-9a-f]{4}:)?([0-9a-f]{2}:[0-9a-f]{2}\.[0-7]) ([^:]+): (.*)", head)
    if not m or not hm:
        raise ConvertError(f"line {first + 1}: not an lspci -vvv block")
    addr = (hm.group(1) or "0000:") + hm.group(2)
    info = {"class": hm.group(3), "title": hm.group(4), "caps": [], "ext": [], "numa": None,
            "devctl": None, "acscap": None, "acsctl": None, "atsctl": None, "driver": None,
            "status_cap": False, "speed": None, "width": None, "line": first + 1}
    devctl_lines = []
    in_devctl = False
    for n, line in enumerate(lines, first + 1):
        s = line.strip()
        cm = re.match(r"Capabilities: \[([0-9a-f]+)(?: v(\d+))?\] (.*)", s)
        if cm:
            in_devctl = False
            off = int(cm.group(1), 16)
            title = cm.group(3)
            if off >= 0x100:
                idm = re.match(r"Extended Capability ID 0x([0-9a-f]+)", title)
                key = next((k for k in EXT_CAPS if title.startswith(k)), None)
                if idm:
                    cid = int(idm.group(1), 16)
                elif key is not None:
                    cid = EXT_CAPS[key]
                else:
                    raise ConvertError(f"line {n}: unknown extended capability {title!r}")
                info["ext"].append((off, cid, int(cm.group(2) or 1)))
            else:
                key = next((k for k in sorted(CAPS, key=len, reverse=True) if title.startswith(k)), None)
                if key is None:
                    raise ConvertError(f"line {n}: unknown capability {title!r}")
                info["caps"].append((off, CAPS[key], title))
            continue
        if s.startswith("Status:") and "Cap+" in s:
            info["status_cap"] = True
        if s.startswith("NUMA node:"):
            info["numa"] = int(s.split(":")[1])
        if s.startswith("Kernel driver in use:"):
            info["driver"] = s.split(":", 1)[1].strip()
        if s.startswith("DevCtl:"):
            in_devctl = True
            devctl_lines = [s[len("DevCtl:"):]]
            continue
        if in_devctl:
            if re.match(r"[A-Za-z0-9]+:", s):
                in_devctl = False
                info["devctl"] = devctl_lines
            else:
                devctl_lines.append(s)
        for key, reg in (("ACSCap:", "acscap"), ("ACSCtl:", "acsctl")):
            if s.startswith(key):
                v = 0
                for bit, word in enumerate(ACS_WORDS):
                    wm = re.search(word + r"([+-])", s)
                    if not wm:
                        raise ConvertError(f"line {n}: {word} missing")
                    if wm.group(1) == "+":
                        v |= 1 << bit
                info[reg] = v
        if s.startswith("ATSCtl:"):
            em = re.search(r"Enable([+-])", s)
            if not em:
                raise ConvertError(f"line {n}: ATSCtl without Enable")
            info["atsctl"] = 0x8000 if em.group(1) == "+" else 0
        lm = re.match(r"LnkSta:\s+Speed ([0-9.]+)GT/s[^,]*, Width x(\d+)", s)
        if lm:
            info["speed"] = lm.group(1)
            info["width"] = lm.group(2)
    if in_devctl:
        info["devctl"] = devctl_lines
    return addr, info


def devctl_value(parts, where):
    text = " ".join(parts)
    v = 0
    for word, bit in DEVCTL_FLAGS.items():
        m = re.search(r"\b" + word + r"([+-])", text)
        if m and m.group(1) == "+":
            v |= 1 << bit
    mp = re.search(r"MaxPayload (\d+) bytes", text)
    mr = re.search(r"MaxReadReq (\d+) bytes", text)
    if not mp or not mr:
        raise ConvertError(f"line {where}: DevCtl without MaxPayload/MaxReadReq")
    for val, shift in ((int(mp.group(1)), 5), (int(mr.group(1)), 12)):
        code = (val // 128).bit_length() - 1
        if 128 << code != val:
            raise ConvertError(f"line {where}: {val} is no PCIe size")
        v |= code << shift
    return v


def config_bytes(vendor, info):
    b = bytearray(4096)
    if vendor is not None:
        b[0:2] = vendor.to_bytes(2, "little")
    if info["status_cap"]:
        b[6] |= 0x10
    caps = info["caps"]
    if caps:
        b[0x34] = caps[0][0]
    for i, (off, cid, title) in enumerate(caps):
        b[off] = cid
        b[off + 1] = caps[i + 1][0] if i + 1 < len(caps) else 0
        if cid == 0x10 and info["devctl"] is not None:
            b[off + 8:off + 10] = devctl_value(info["devctl"], info["line"]).to_bytes(2, "little")
    ext = info["ext"]
    for i, (off, cid, ver) in enumerate(ext):
        nxt = ext[i + 1][0] if i + 1 < len(ext) else 0
        b[off:off + 4] = (cid | (ver << 16) | (nxt << 20)).to_bytes(4, "little")
        if cid == 0x000D:
            b[off + 4:off + 6] = (info["acscap"] or 0).to_bytes(2, "little")
            b[off + 6:off + 8] = (info["acsctl"] or 0).to_bytes(2, "little")
        if cid == 0x000F:
            b[off + 6:off + 8] = (info["atsctl"] or 0).to_bytes(2, "little")
    return bytes(b)


def nic_legend(lines):
    out = {}
    for line in lines:
        m = re.match(r"\s*NIC(\d+): (\S+)$", line)
        if m:
            out[int(m.group(1))] = m.group(2)
    return [out[k] for k in sorted(out)]


def safe(name, where):
    if not name or name in (".", "..") or "/" in name or "\0" in name:
        raise ConvertError(f"{where}: {name!r} cannot be a file name")
    return name


def write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def convert(text, out):
    lines = text.split("\n")
    trees = blocks(lines, re.compile(r"lspci -tv\b"))
    if len(trees) != 1:
        raise ConvertError(f"{len(trees)} lspci -tv blocks; one wanted")
    first, _, tree_lines = trees[0]
    funcs, order = parse_tree(first, tree_lines)
    details = {}
    for first, command, body in blocks(lines, re.compile(r"lspci -vvv -s ")):
        addr, info = parse_vvv(first, command, body)
        if addr not in funcs:
            raise ConvertError(f"line {first}: {addr} is not in the lspci -tv tree")
        details[addr] = info
    legend = []
    for _, _, body in blocks(lines, re.compile(r"nvidia-smi topo -m")):
        legend = nic_legend(body)

    def host_of(addr):
        while not funcs[addr][0].startswith("pci"):
            addr = funcs[addr][0]
        return funcs[addr][0]

    numa = {}
    for addr, info in details.items():
        if info["numa"] is not None:
            h = host_of(addr)
            if numa.setdefault(h, info["numa"]) != info["numa"]:
                raise ConvertError(f"line {info['line']}: {h} on two NUMA nodes")

    sys_dir = os.path.join(out, "sys")
    dirs = {}

    def dir_of(addr):
        if addr not in dirs:
            parent = funcs[addr][0]
            base = os.path.join("devices", parent) if parent.startswith("pci") else dir_of(parent)
            dirs[addr] = os.path.join(base, safe(addr, addr))
        return dirs[addr]

    mellanox = [a for a in sorted(order) if funcs[a][1].startswith("Mellanox Technologies")]
    if legend and len(legend) != len(mellanox):
        raise ConvertError(f"NIC Legend names {len(legend)} NICs, the tree has {len(mellanox)} Mellanox functions")
    for addr in order:
        parent, name, is_bridge = funcs[addr]
        d = os.path.join(sys_dir, dir_of(addr))
        os.makedirs(d, exist_ok=True)
        info = details.get(addr)
        vendor = next((v for k, v in VENDORS.items() if (info["title"] if info else name).startswith(k + " ")), None)
        if vendor is not None:
            write(os.path.join(d, "vendor"), f"0x{vendor:04x}\n")
        cls = 0x060400 if is_bridge else None
        if info is not None:
            if info["class"] not in CLASSES:
                raise ConvertError(f"line {info['line']}: unknown class {info['class']!r}")
            cls = CLASSES[info["class"]]
            write(os.path.join(d, "config"), config_bytes(vendor, info))
            if info["speed"]:
                write(os.path.join(d, "current_link_speed"), f"{float(info['speed']):.1f} GT/s PCIe\n")
                write(os.path.join(d, "current_link_width"), info["width"] + "\n")
            if info["driver"]:
                drv = safe(info["driver"], f"line {info['line']}")
                os.makedirs(os.path.join(sys_dir, "bus/pci/drivers", drv), exist_ok=True)
                rel = os.path.relpath(os.path.join(sys_dir, "bus/pci/drivers", drv), d)
                os.symlink(rel, os.path.join(d, "driver"))
        if cls is not None:
            write(os.path.join(d, "class"), f"0x{cls:06x}\n")
        h = host_of(addr)
        if h in numa:
            write(os.path.join(d, "numa_node"), f"{numa[h]}\n")
        link = os.path.join(sys_dir, "bus/pci/devices", addr)
        os.makedirs(os.path.dirname(link), exist_ok=True)
        os.symlink(os.path.relpath(d, os.path.dirname(link)), link)
    for addr, ibdev in zip(mellanox, legend):
        ibdev = safe(ibdev, "NIC Legend")
        d = os.path.join(sys_dir, dir_of(addr), "infiniband", ibdev)
        write(os.path.join(d, "ports/1/link_layer"), "Ethernet\n")
        os.symlink("../../../" + addr, os.path.join(d, "device"))
        cls_link = os.path.join(sys_dir, "class/infiniband", ibdev)
        os.makedirs(os.path.dirname(cls_link), exist_ok=True)
        os.symlink(os.path.relpath(d, os.path.dirname(cls_link)), cls_link)
    os.makedirs(os.path.join(sys_dir, "class/net"), exist_ok=True)


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        text = f.read()
    try:
        if os.path.exists(os.path.join(argv[2], "sys")):
            raise ConvertError(f"{argv[2]}/sys exists; choose a new directory")
        convert(text, argv[2])
    except ConvertError as e:
        print(f"{argv[1]}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
