# SPDX-License-Identifier: GPL-3.0-or-later
"""What the QEMU labs share (Tests/KernelLab, Tests/DriverLab, Tests/SystemLab).

Failures that name the step they happened in, a command runner that shows a failed
command's errors, Debian's kernel (which package, its uncompressed vmlinux, a kit of
the modules a lab needs with their load order, cached), a newc cpio writer and an
initramfs builder, the QEMU command line, and a boot that echoes the guest's steps.
Python 3, standard library only. Each lab imports it by path (`load` in its lab.py).
"""

import lzma
import os
import re
import shutil
import stat
import subprocess
import tempfile
import time
from pathlib import Path

BUSYBOX = Path("/bin/busybox")
QBOOT = Path("/usr/share/qemu/qboot.rom")

LAB = "lab"          # "kernel lab", "driver lab"…: what progress lines start with
STEP = "start"
PASSED = 0           # steps and checks done, for the closing "N passed, N failed" line


def configure(name):
    """Names the lab in its progress lines and starts the count again."""
    global LAB, STEP, PASSED
    LAB, STEP, PASSED = name, "start", 0


class LabFailure(Exception):
    def __init__(self, step, message, tail=None):
        super().__init__(message)
        self.step = step
        self.tail = tail


def fail(message, tail=None):
    raise LabFailure(STEP, message, tail)


def step(name):
    begin(name)
    print(f"{LAB}: {name}", flush=True)


def begin(name):
    """The step or check that a failure from now on is reported against."""
    global STEP, PASSED
    if STEP != "start":
        PASSED += 1
    STEP = name


def run(command, attempts=1, **kwargs):
    """Runs a command; a failure names it and shows its errors and last lines."""
    for attempt in range(attempts):
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kwargs)
        if result.returncode == 0:
            return result.stdout
        if attempt + 1 < attempts:
            print(f"  {' '.join(map(str, command[:3]))} exited {result.returncode}; once more", flush=True)
    lines = result.stdout.splitlines()
    errors = [line for line in lines[:-30] if "error" in line.lower()][-20:]
    fail(f"{' '.join(map(str, command))} exited {result.returncode}", errors + lines[-30:])


def report_failure(failure, out):
    """Prints a LabFailure the way every lab does, and the closing count line."""
    import sys
    print(f"{LAB}: FAILED at step '{failure.step}': {failure}", file=sys.stderr)
    if failure.tail:
        print("--- the last lines:", file=sys.stderr)
        for line in failure.tail:
            print(f"  {line}", file=sys.stderr)
    print(f"{LAB}: console and recordings in {out}", file=sys.stderr)
    print(f"{LAB.replace(' ', '-')}: {PASSED} passed, 1 failed")


# --- The kernel -----------------------------------------------------------------

def cache_dir(variable, name):
    """$variable, else ${XDG_CACHE_HOME:-~/.cache}/name."""
    return Path(os.environ.get(variable)
                or Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / name)


def kernel_package(cache):
    """The linux-image-*-amd64 package apt offers now (what linux-image-amd64 depends on)."""
    pinned = os.environ.get("KERNEL_LAB_KERNEL")
    if pinned:
        return pinned
    try:
        out = subprocess.run(["apt-cache", "depends", "linux-image-amd64"], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True).stdout
        found = re.findall(r"Depends: (linux-image-[0-9][\w.+-]*-amd64)", out)
        if found:
            return found[0]
    except FileNotFoundError:
        pass
    # No apt lists: the newest kit already in the cache.
    kits = sorted(p.name for p in cache.glob("linux-image-*") if (p / "vmlinux").exists())
    if kits:
        return re.match(r"linux-image-[0-9][\w.+]*?-\d+-amd64", kits[-1]).group(0)
    fail("apt-cache offers no linux-image-amd64 (run apt-get update) and nothing is cached")


def extract_vmlinux(bzimage, target):
    """The uncompressed kernel from a bzImage's xz payload (qboot boots it via PVH)."""
    data = bzimage.read_bytes()
    start = data.find(b"\xfd7zXZ\x00")
    if start < 0:
        fail(f"{bzimage} has no xz payload")
    elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(data[start:])
    if elf[:4] != b"\x7fELF":
        fail(f"{bzimage}: the payload is not an ELF kernel")
    target.write_bytes(elf)


def unpack_kernel(package, work):
    """apt-get download and dpkg-deb -x into work/root; returns (root, module version)."""
    run(["apt-get", "download", package], cwd=work)
    debs = list(work.glob("linux-image-*.deb"))
    if not debs:
        fail(f"apt-get download {package} left no .deb")
    root = work / "root"
    run(["dpkg-deb", "-x", str(debs[0]), str(root)])
    versions = [p.name for p in (root / "lib/modules").iterdir()]
    if len(versions) != 1:
        fail(f"{package}: expected one module tree, found {versions}")
    run(["depmod", "-b", str(root), versions[0]])
    return root, versions[0]


def load_order(root, version, modules):
    """The .ko paths that load `modules`, dependencies first (modprobe --show-depends)."""
    order = []
    for module in modules:
        out = run(["modprobe", "-d", str(root), "-S", version, "--show-depends", module])
        for line in out.splitlines():
            words = line.split()
            if words[:1] == ["insmod"] and words[1] not in order:
                order.append(words[1])
    return order


def kernel_kit(cache, modules, extra=None, key=None):
    """vmlinux, the needed modules (with depmod's indexes) and their load order, cached
    in cache/PACKAGE (cache/PACKAGE-KEY with a key). `extra(root, version, kit)`, if
    given, may add modules built against the same kernel: it returns their paths inside
    the kit, in load order."""
    package = kernel_package(cache)
    kit = cache / (f"{package}-{key}" if key else package)
    if (kit / "vmlinux").exists() and (kit / "modules.load").exists():
        print(f"  {package} (cached)")
        return kit
    print(f"  {package}: downloading", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="kit-", dir=cache))
    try:
        root, version = unpack_kernel(package, work)
        new = work / "kit"
        base = root / "lib/modules" / version
        (new / "lib/modules" / version).mkdir(parents=True)
        extract_vmlinux(next((root / "boot").glob("vmlinuz-*")), new / "vmlinux")
        load = []
        for path in load_order(root, version, modules):
            relative = Path(path).relative_to(base)
            (new / "lib/modules" / version / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, new / "lib/modules" / version / relative)
            load.append(f"/lib/modules/{version}/{relative}")
        for name in ("modules.order", "modules.builtin", "modules.builtin.modinfo"):
            if (base / name).exists():
                shutil.copy2(base / name, new / "lib/modules" / version / name)
        if extra:
            load += extra(root, version, new)
        run(["depmod", "-b", str(new), version])
        (new / "version").write_text(version + "\n")
        (new / "modules.load").write_text("\n".join(load) + "\n")
        if kit.exists():
            shutil.rmtree(kit)
        new.rename(kit)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return kit


# --- The initramfs ---------------------------------------------------------------

def libraries(binary):
    """The shared objects ldd lists for a binary (the loader included)."""
    out = run(["ldd", str(binary)])
    found = []
    for line in out.splitlines():
        match = re.search(r"(?:=>\s*)?(/\S+)\s+\(0x", line)
        if match:
            found.append(match.group(1))
    return found


def newc(entries, target):
    """Writes a newc cpio archive: entries are (path, mode, data or link target)."""
    with open(target, "wb") as out:
        def header(name, mode, size, ino):
            name_bytes = name.encode() + b"\0"
            fields = [ino, mode, 0, 0, 1, 0, size, 0, 0, 0, 0, len(name_bytes), 0]
            out.write(b"070701" + b"".join(b"%08X" % f for f in fields) + name_bytes)
            out.write(b"\0" * ((4 - (110 + len(name_bytes)) % 4) % 4))

        for ino, (name, mode, data) in enumerate(entries, start=1):
            payload = data if isinstance(data, bytes) else data.encode()
            header(name, mode, len(payload), ino)
            out.write(payload)
            out.write(b"\0" * ((4 - len(payload) % 4) % 4))
        header("TRAILER!!!", 0, 0, 0)


# udev rules from the host's udev package; the project's own come from udev/.
HOST_RULES = ["50-udev-default.rules", "60-input-id.rules", "60-sensor.rules", "80-drivers.rules"]


def daemon_initramfs(repo, kit, daemon, helpers, config, init, target, extra_files=None):
    """busybox, udevd, the daemon with its libraries (libiio included), the kit's
    modules, the udev rules, the `tiltpuzzle` user, /etc/lab/{modules,config}, and
    `init` as /init: what the kernel and driver labs boot."""
    entries = {}

    def directory(path):
        parts = Path(path).parts
        for i in range(2, len(parts) + 1):
            entries.setdefault("/".join(parts[1:i]), (stat.S_IFDIR | 0o755, b""))

    def add_file(path, source=None, data=None, mode=0o644):
        directory(str(Path(path).parent))
        if data is None:
            data = Path(source).read_bytes()
            mode = os.stat(source).st_mode & 0o777
        entries[path.lstrip("/")] = (stat.S_IFREG | mode, data)

    def add_link(path, target_path):
        directory(str(Path(path).parent))
        entries[path.lstrip("/")] = (stat.S_IFLNK | 0o777, target_path)

    for d in ("/dev", "/proc", "/sys", "/run", "/tmp", "/var/lib", "/root", "/etc/udev/rules.d"):
        directory(d)
    add_file("/bin/busybox", BUSYBOX)
    for applet in run([str(BUSYBOX), "--list"]).split():
        if applet not in ("busybox", "init", "linuxrc"):
            add_link(f"/bin/{applet}", "busybox")
    add_link("/sbin", "bin")
    udevadm = Path(shutil.which("udevadm") or "/bin/udevadm").resolve()
    add_file("/bin/udevadm", udevadm)
    add_link("/bin/systemd-udevd", "udevadm")
    add_file("/bin/tiltpuzzled", daemon)
    for helper in helpers:
        add_file(f"/bin/{helper.name}", helper)
    for binary in (daemon, udevadm):
        for lib in libraries(binary):
            add_file(lib, os.path.realpath(lib))
    # The daemon opens libiio at run time (docs/performance.md), so ldd does not list
    # it: it goes where libc is, with what it needs.
    libdir = Path(next(lib for lib in libraries(daemon) if Path(lib).name == "libc.so.6")).parent
    libiio = libdir / "libiio.so.0"
    for lib in [str(libiio)] + libraries(libiio):
        add_file(lib, os.path.realpath(lib))
    for rule in HOST_RULES:
        source = Path("/usr/lib/udev/rules.d") / rule
        if source.exists():
            add_file(f"/usr/lib/udev/rules.d/{rule}", source)
    for rule in (repo / "udev").glob("*.rules"):
        add_file(f"/usr/lib/udev/rules.d/{rule.name}", rule)
    version = (kit / "version").read_text().strip()
    for path in (kit / "lib/modules" / version).rglob("*"):
        if path.is_file():
            add_file("/" + str(path.relative_to(kit)), path)
    add_file("/etc/lab/modules", data=(kit / "modules.load").read_bytes())
    add_file("/etc/lab/config", data="".join(f"{k}='{v}'\n" for k, v in config.items()).encode())
    add_file("/etc/passwd", data=b"root:x:0:0:root:/root:/bin/sh\n"
             b"tiltpuzzle:x:999:999:tiltpuzzle:/var/lib/tiltpuzzle:/bin/false\n")
    groups = ["root:x:0:", "tty:x:5:", "disk:x:6:", "kmem:x:15:", "dialout:x:20:", "cdrom:x:24:",
              "floppy:x:25:", "tape:x:26:", "audio:x:29:", "video:x:44:", "sgx:x:102:", "input:x:105:",
              "kvm:x:106:", "render:x:107:", "tiltpuzzle:x:999:"]
    add_file("/etc/group", data=("\n".join(groups) + "\n").encode())
    add_file("/etc/shadow", data=b"root:*:19000::::::\ntiltpuzzle:!:19000::::::\n", mode=0o600)
    for path, source in (extra_files or {}).items():
        add_file(path, source)
    add_file("/init", init)
    newc([(name, mode, data) for name, (mode, data) in sorted(entries.items())], target)


def build_daemon(repo, daemon=None, scratch_path=None):
    """The release tiltpuzzled: the one given, or swift build's."""
    if daemon:
        built = Path(daemon).resolve()
    else:
        command = ["swift", "build", "-c", "release", "--static-swift-stdlib"]
        if scratch_path:
            command += ["--scratch-path", scratch_path]
        # A second try: a release build once stopped without an error message while
        # other builds shared the machine.
        run(command + ["--product", "tiltpuzzled"], attempts=2, cwd=repo)
        built = Path(run(command + ["--show-bin-path"], cwd=repo).strip().splitlines()[-1]) / "tiltpuzzled"
    if not built.exists():
        fail(f"no daemon at {built}")
    return built


def build_helpers(sources, out, includes=()):
    """The guest's C programs, linked statically; returns the binaries."""
    binaries = []
    for source in sources:
        binary = out / source.stem
        run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-pthread",
             *[f"-I{d}" for d in includes], "-o", str(binary), str(source), "-lm"])
        binaries.append(binary)
    return binaries


# --- Booting ----------------------------------------------------------------------

def qemu_command(kernel, initrd, accel="tcg", memory=1024, serial_files=(), drives=(), shares=(),
                 append="console=ttyS0 quiet loglevel=4 panic=-1", disk_cache=None):
    """qemu-system-x86_64 booting `kernel` (an uncompressed vmlinux, through qboot) with
    `initrd`: serial port 1 on standard output, the others into `serial_files`; raw
    `drives` (snapshot: the image stays clean; with a `disk_cache` mode such as
    `directsync`, written in place with that mode instead) and 9p `shares` (tag, path,
    read_only)."""
    machine = ["-accel", "kvm", "-cpu", "host"] if accel == "kvm" else ["-accel", "tcg,thread=multi", "-cpu", "max"]
    command = ["qemu-system-x86_64", *machine, "-m", str(memory), "-smp", "2", "-display", "none",
               "-monitor", "none", "-no-reboot", "-bios", str(QBOOT), "-kernel", str(kernel),
               "-initrd", str(initrd)]
    for drive in drives:
        kept = f"cache={disk_cache}" if disk_cache else "snapshot=on"
        command += ["-drive", f"file={drive},format=raw,if=virtio,{kept}"]
    for tag, path, read_only in shares:
        command += ["-virtfs", f"local,path={path},mount_tag={tag},security_model=none"
                    + (",readonly=on" if read_only else "")]
    command += ["-serial", "stdio"]
    for path in serial_files:
        command += ["-serial", f"file:{path}"]
    return command + ["-append", append]


def kvm_usable(kit, initrd, work):
    """Whether KVM boots this kernel: a short boot that only answers (its init prints
    LAB-PROBE-OK when the command line says lab.probe)."""
    if not os.access("/dev/kvm", os.R_OK | os.W_OK):
        return False
    command = qemu_command(kit / "vmlinux", initrd, "kvm", serial_files=[work / "probe.txt"],
                           append="console=ttyS0 quiet loglevel=4 panic=-1 lab.probe")
    try:
        result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=30)
    except subprocess.TimeoutExpired:
        return False
    return b"LAB-PROBE-OK" in result.stdout


def boot(command, console_path, timeout, markers=("LAB-STEP",), strip=9, drop_last_word=True):
    """Runs QEMU, echoing the console lines that start with one of `markers` (less their
    first `strip` characters, and the last word, a guest time, if `drop_last_word`);
    returns the console's lines."""
    started = time.monotonic()
    lines = []
    with open(console_path, "w", errors="replace") as console:
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            deadline = started + timeout
            for raw in iter(process.stdout.readline, b""):
                line = raw.decode(errors="replace").rstrip("\r\n")
                lines.append(line)
                console.write(line + "\n")
                if line.startswith(tuple(markers)):
                    shown = line[strip:].rsplit(" ", 1)[0] if drop_last_word else line[strip:]
                    print(f"  [{time.monotonic() - started:6.1f}s] {shown}", flush=True)
                if time.monotonic() > deadline:
                    process.kill()
                    fail(f"the guest did not finish within {timeout}s", lines[-40:])
            process.wait(timeout=max(1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            process.kill()
            fail(f"the guest did not finish within {timeout}s", lines[-40:])
    return lines


def run_guest(kit, initrd, out, accel, timeout):
    """Boots a kernel lab's or driver lab's guest (`accel` "auto": KVM when a probe boot
    works, else TCG), its recordings on serial port 2 into out/results.txt; counts its
    LAB-STEP lines as passed and fails at its first LAB-FAIL, or when it stops without
    LAB-RESULT PASS. Returns (the accelerator used, the guest's seconds)."""
    global STEP, PASSED
    if accel == "auto":
        accel = "kvm" if kvm_usable(kit, initrd, out) else "tcg"
    print(f"  {accel}, kernel {(kit / 'version').read_text().strip()}", flush=True)
    results_path = out / "results.txt"
    results_path.unlink(missing_ok=True)
    booted = time.monotonic()
    console = boot(qemu_command(kit / "vmlinux", initrd, accel, serial_files=[results_path]),
                   out / "console.txt", timeout)
    guest_seconds = time.monotonic() - booted
    failed = [line for line in console if line.startswith("LAB-FAIL")]
    PASSED += sum(line.startswith("LAB-STEP") for line in console) - bool(failed)
    if failed:
        STEP, _, why = failed[0][10:].partition("] ")
        fail(f"in the guest: {why}", console[-60:])
    if "LAB-RESULT PASS" not in console:
        fail("the guest stopped without a result", console[-60:])
    return accel, guest_seconds


def sections(text):
    """The files a guest dumped to a serial port: `=== FILE NAME` … `=== END`."""
    files, name = {}, None
    for line in text.splitlines():
        if line.startswith("=== FILE "):
            name = line[9:].strip()
            files[name] = []
        elif line.startswith("=== END"):
            name = None
        elif name:
            files[name].append(line.rstrip("\r"))
    return files


def load(path):
    """Imports a lab's Python file by path (how the labs share code without a package)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(Path(path).stem.replace("-", "_"), path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
