#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The system lab: tiltpuzzle installed for real on Debian 12 with systemd as PID 1.

Builds (once, cached) a minimal Debian root file system with mmdebstrap and the
kernel the kernel lab uses, boots it under QEMU, installs the project in it as a
user would, and reads the checks' results. See README.md beside this file.
Python 3, stdlib only; shares Tests/QEMULab/qemulab.py with the other QEMU labs, and the
kernel lab's device helpers.
"""

import argparse
import hashlib
import importlib.util
import os
import re
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GUEST = HERE / "guest"

# What the QEMU labs share (Tests/QEMULab/qemulab.py): kernel package choice, vmlinux
# extraction, cpio writer, command runner, steps and failures, QEMU and the boot. The
# guest helpers (the HID and evdev accelerometers) are the kernel lab's.
_spec = importlib.util.spec_from_file_location("qemulab", REPO / "Tests/QEMULab/qemulab.py")
qemulab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(qemulab)
LabFailure, fail, step, run = qemulab.LabFailure, qemulab.fail, qemulab.step, qemulab.run
_spec = importlib.util.spec_from_file_location("powercut", HERE / "powercut.py")
powercut = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(powercut)
KERNEL_LAB_GUEST = REPO / "Tests/KernelLab/guest"
HELPERS = ["uhid-accel", "uinput-accel"]

# What the image holds besides Debian's minimal base (apt included): systemd as init,
# udev, the libraries the project links, make (to install the project as the README
# says) and procps (/bin/kill, which the service's ExecReload runs).
PACKAGES = ["systemd", "systemd-sysv", "udev", "dbus", "kmod", "procps", "make",
            "libiio0", "libevdev2", "libudev1", "libsystemd0", "libsdl2-2.0-0", "libsdl2-ttf-2.0-0",
            "libsdl2-image-2.0-0"]
# What the initramfs loads to mount the root file system (with their dependencies).
ROOT_MODULES = ["virtio_pci", "virtio_blk", "ext4"]
IMAGE_SIZE = "2G"


def sources():
    """The machine's apt sources, handed to mmdebstrap as they are."""
    found = [Path("/etc/apt/sources.list")] + sorted(Path("/etc/apt/sources.list.d").glob("*"))
    return [p for p in found if p.is_file() and p.suffix in (".list", ".sources") and p.stat().st_size]


def image_key(kernel):
    """What the cached image depends on: packages, kernel, the recipe's files, sources."""
    digest = hashlib.sha256()
    for part in PACKAGES + ROOT_MODULES + [kernel, IMAGE_SIZE]:
        digest.update(part.encode() + b"\0")
    for path in [GUEST / "customize", GUEST / "systemlab.service", GUEST / "initramfs-init"] + sources():
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def base_image(cache, kernel):
    """root.ext4, vmlinux and initrd.cpio for this package list and kernel; built if missing."""
    where = cache / image_key(kernel)
    wanted = [where / name for name in ("root.ext4", "vmlinux", "initrd.cpio")]
    if all(p.exists() for p in wanted):
        print(f"  {where} (cached)")
        return where
    if os.geteuid() != 0:
        fail("building the base image needs root (mmdebstrap, and mkfs.ext4 keeping owners); "
             "run once as root, or set SYSTEMLAB_CACHE to a prepared cache")
    print(f"  building {where}: mmdebstrap bookworm, {kernel}", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="build-", dir=cache))
    try:
        kroot, version = qemulab.unpack_kernel(kernel, work)
        deb = next(work.glob("linux-image-*.deb"))
        qemulab.extract_vmlinux(next((kroot / "boot").glob("vmlinuz-*")), work / "vmlinux")
        initramfs(kroot, version, work / "initrd.cpio")
        shutil.rmtree(kroot)

        root = work / "root"
        command = ["mmdebstrap", "--variant=minbase", "--include=" + ",".join(PACKAGES),
                   "--dpkgopt=path-exclude=/usr/share/man/*", "--dpkgopt=path-exclude=/usr/share/locale/*",
                   "--dpkgopt=path-exclude=/usr/share/doc/*", "--dpkgopt=path-include=/usr/share/doc/*/copyright",
                   f"--customize-hook={GUEST / 'customize'} \"$1\"",
                   "bookworm", str(root)] + [str(p) for p in sources()]
        run(command, env=dict(os.environ, SYSTEMLAB_KERNEL_DEB=str(deb)))
        run(["mkfs.ext4", "-q", "-L", "systemlab", "-d", str(root), str(work / "root.ext4"), IMAGE_SIZE])
        shutil.rmtree(root)
        deb.unlink()
        if where.exists():
            shutil.rmtree(where)
        work.rename(where)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return where


def initramfs(kroot, version, target):
    """busybox, the modules that mount the root, and initramfs-init as /init."""
    order = qemulab.load_order(kroot, version, ROOT_MODULES)
    entries = [("bin", 0o40755, b""), ("dev", 0o40755, b""), ("proc", 0o40755, b""), ("sys", 0o40755, b""),
               ("root", 0o40755, b""), ("lib", 0o40755, b"")]
    entries.append(("bin/busybox", 0o100755, qemulab.BUSYBOX.read_bytes()))
    for applet in ("sh", "mount", "umount", "insmod", "sleep", "mkdir", "switch_root", "poweroff"):
        entries.append((f"bin/{applet}", 0o120777, "busybox"))
    load = []
    for i, path in enumerate(order):
        name = f"lib/{i:02d}-{Path(path).name}"
        entries.append((name, 0o100644, Path(path).read_bytes()))
        load.append("/" + name)
    entries.append(("modules", 0o100644, ("\n".join(load) + "\n").encode()))
    entries.append(("init", 0o100755, (GUEST / "initramfs-init").read_bytes()))
    qemulab.newc(entries, target)


def build_package():
    """dpkg-buildpackage -b, as the README builds the package; returns the .debs it made
    (written beside the repository, as dpkg-buildpackage does; moved into the lab's output)."""
    version = re.match(r"\S+ \(([^)]+)\)", (REPO / "debian/changelog").read_text()).group(1)
    arch = run(["dpkg", "--print-architecture"]).strip()
    made = [REPO.parent / f"{name}_{version}_{arch}.deb" for name in ("tiltpuzzle", "tiltpuzzle-gui")]
    for deb in made:
        deb.unlink(missing_ok=True)
    # -d: the Swift toolchain is no Debian package, so build dependencies are not checked.
    run(["dpkg-buildpackage", "-b", "-us", "-uc", "-d"], cwd=REPO)
    for deb in made:
        if not deb.exists():
            fail(f"dpkg-buildpackage made no {deb}")
    for extra in REPO.parent.glob(f"tiltpuzzle*_{version}_{arch}.*"):
        if extra.suffix in (".buildinfo", ".changes") or extra.name.endswith(".ddeb") or "-dbgsym_" in extra.name:
            extra.unlink()
    return made


def hardening(debs, work):
    """Debian's hardening in the built packages (README.md, "Hardening"): hardening-check
    on every ELF file they install (PIE, stack protector, RELRO, immediate binding;
    fortification is overridden with its reason in debian/*.lintian-overrides), and
    lintian on the packages: no hardening tag. Returns (results, notes)."""
    results, notes = [], []
    for deb in debs:
        root = work / deb.stem
        run(["dpkg-deb", "-x", str(deb), str(root)])
        elves = sorted(p for p in root.rglob("*") if p.is_file() and not p.is_symlink()
                       and p.open("rb").read(4) == b"\x7fELF")
        if not elves:
            results.append(f"FAIL hardening-{deb.name.split('_')[0]}: no ELF file in {deb.name}")
        for elf in elves:
            name = f"hardening-check-{elf.name}"
            # The check's exit status says whether all the required features are there.
            checked = subprocess.run(["hardening-check", "--nofortify", "--nocfprotection", str(elf)],
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            missing = [line.strip() for line in checked.stdout.splitlines()[1:]
                       if ": no" in line and "Fortify" not in line and "Control flow" not in line
                       and "Stack clash" not in line]
            if checked.returncode == 0 and not missing:
                results.append(f"ok {name}")
            else:
                results.append(f"FAIL {name}: {'; '.join(missing) or checked.stdout.strip()}")
        shutil.rmtree(root)
    # -I: the hardening tags are of the kind "info", which lintian hides by default.
    lintian = subprocess.run(["lintian", "-I", "--tag-display-limit", "0", *map(str, debs)],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tags = [line for line in lintian.stdout.splitlines() if re.match(r"^[EWIXP]: ", line)]
    # An override that no longer matches (mismatched-override, unused-override) counts too.
    bad = [line for line in tags if "hardening-" in line or "override" in line]
    results.append("ok lintian-hardening" if not bad else f"FAIL lintian-hardening: {'; '.join(bad)}")
    # A free license a distribution can ship: no tag about the copyright file or a license.
    licensing = [line for line in tags if "copyright" in line or "license" in line]
    results.append("ok lintian-license" if not licensing else f"FAIL lintian-license: {'; '.join(licensing)}")
    bad += licensing
    others = sorted({line.split()[2] for line in tags if line not in bad and len(line.split()) > 2})
    notes.append(f"lintian: {len(tags) - len(bad)} other tag(s), none of hardening ({', '.join(others)})")
    return results, notes


LANGUAGES = ["de", "el", "ru"]


def translations(debs, work):
    """The player's language in the built packages (docs/translating.md): each catalog
    installed, and the desktop entry and the AppStream data merged with every language
    and valid. The image leaves /usr/share/locale out to stay small, so the packages'
    own files are checked here, as installed. Returns the results."""
    results = []
    for deb in debs:
        root = work / (deb.stem + "-languages")
        run(["dpkg-deb", "-x", str(deb), str(root)])
        package = deb.name.split("_")[0]
        if package == "tiltpuzzle":
            for lang in LANGUAGES:
                catalog = root / f"usr/share/locale/{lang}/LC_MESSAGES/tiltpuzzle.mo"
                ok = catalog.is_file() and catalog.read_bytes()[:4] in (b"\xde\x12\x04\x95", b"\x95\x04\x12\xde")
                results.append(f"ok catalog-{lang}" if ok else f"FAIL catalog-{lang}: no compiled catalog at /{catalog.relative_to(root)}")
        for entry in sorted(root.glob("usr/share/applications/*.desktop")):
            text = entry.read_text()
            checked = subprocess.run(["desktop-file-validate", str(entry)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
            missing = [lang for lang in LANGUAGES if f"Name[{lang}]=" not in text or f"Comment[{lang}]=" not in text]
            results.append("ok desktop-entry-languages" if checked.returncode == 0 and not missing
                           else f"FAIL desktop-entry-languages: {checked.stdout.strip()} missing {missing}")
        for metainfo in sorted(root.glob("usr/share/metainfo/*.xml")):
            text = metainfo.read_text()
            checked = subprocess.run(["appstreamcli", "validate", "--no-net", str(metainfo)], stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, text=True)
            missing = [lang for lang in LANGUAGES if f'xml:lang="{lang}"' not in text]
            results.append("ok metainfo-languages" if checked.returncode == 0 and not missing
                           else f"FAIL metainfo-languages: {checked.stdout.strip()[-300:]} missing {missing}")
        shutil.rmtree(root)
    return results


# --- The run -------------------------------------------------------------------

def qemu_command(image, share_out):
    # The drive's snapshot=on: the guest's writes go to a temporary file, the cached image stays clean.
    return qemulab.qemu_command(image / "vmlinux", image / "initrd.cpio", memory=2048,
                                drives=[image / "root.ext4"],
                                shares=[("src", REPO, True), ("out", share_out, False)],
                                append="console=ttyS0 quiet loglevel=3 panic=-1 systemd.show_status=error")


def boot(command, console_path, timeout):
    """Runs QEMU, echoing the guest's steps; returns the console's lines."""
    return qemulab.boot(command, console_path, timeout, markers=("SYSTEMLAB-STEP", "SYSTEMLAB-FAIL"), strip=10,
                        drop_last_word=False)


def power_cuts(image, out, cuts, seed, timeout):
    """The power-cut run (README.md, "Power cuts"): boot 0 installs the package on a
    disk of the run's own and plays, and each later boot writes down what the cut
    before it left and plays until the next; QEMU is killed with SIGKILL at a moment
    drawn from `seed`. Returns the checks' results and the loss ages."""
    rng = random.Random(seed)
    folder = out / "powercut"
    folder.mkdir()
    (folder / "seed").write_text(f"{seed}\n")
    # The verdict's own check, on made-up boots: it must catch a mix, a lost
    # acknowledged change and an old game.
    problems = powercut.self_test(Path(tempfile.mkdtemp(dir=folder)))
    if problems:
        return [("FAIL", "powercut-verdict", "; ".join(problems))], [], [], []
    disk = folder / "disk.ext4"
    # A FAT card for the last boot to try the daemon on (a note, not a check).
    if shutil.which("mkfs.vfat"):
        run(["mkfs.vfat", "-C", str(folder / "card.vfat"), "16384"])
    run(["cp", "--sparse=always", str(image / "root.ext4"), str(disk)])
    boots = []
    for n in range(cuts + 1):
        last = n == cuts
        # cache=none: what the guest writes goes to the image file without the host's
        # page cache, and what it has not written yet (its own page cache) dies with it.
        # No udev coldplug: the run needs no device but the disk and the shares, whose
        # modules the kernel loads when they are mounted.
        command = qemulab.qemu_command(image / "vmlinux", image / "initrd.cpio", memory=2048, drives=[disk],
                                       shares=[("src", REPO, True), ("out", out, False)], disk_cache="none",
                                       append="console=ttyS0 quiet loglevel=3 panic=-1 systemd.show_status=error "
                                              "systemd.mask=systemd-udev-trigger.service "
                                              f"systemlab.powercut={n}{',last' if last else ''}")
        delay = rng.uniform(0.5, 4.0)
        started = time.monotonic()
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        cut = None
        watchdog = threading.Timer(timeout, process.kill)
        watchdog.start()
        with open(folder / f"console-{n}.txt", "w", errors="replace") as console:
            for raw in iter(process.stdout.readline, b""):
                line = raw.decode(errors="replace").rstrip("\r\n")
                console.write(line + "\n")
                if line.startswith("SYSTEMLAB-STEP powercut-"):
                    print(f"  [{time.monotonic() - started:6.1f}s] {line[15:]}", flush=True)
                    if line.split()[2:3] == ["playing"] and not last:
                        # The power cut: SIGKILL, so QEMU writes nothing more.
                        cut = threading.Timer(delay, process.kill)
                        cut.start()
        process.wait()
        watchdog.cancel()
        boots.append(time.monotonic() - started)
        status = (folder / f"boot-{n}" / "status")
        if status.exists() or (not last and cut is None):
            why = status.read_text().strip() if status.exists() else "the guest never played"
            if not (last and why == "checked"):
                return [("FAIL", f"boot-{n}", f"{why} (see {folder}/console-{n}.txt)")], [], boots, []
        if not last:
            print(f"  cut {n + 1} of {cuts}: {delay:.2f} s into play", flush=True)
    results, ages, _ = powercut.check(folder, cuts)
    results.insert(0, ("ok", "powercut-verdict", ""))
    disk.unlink()
    return results, ages, boots, powercut.vfat_note(folder / f"boot-{cuts}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image-only", action="store_true", help="build or find the base image, then stop")
    parser.add_argument("--no-build", action="store_true", help="use the release binaries already in .build/release")
    parser.add_argument("--install", choices=["package", "make"], default="package",
                        help="package (default): build the Debian package (dpkg-buildpackage, as the README "
                             "says) and apt install it in the guest; make: make install by hand, as the README says")
    parser.add_argument("--deb", help="install this tiltpuzzle_*.deb instead of building one")
    parser.add_argument("--timeout", type=int, default=600, help="seconds the guest may take (default 600)")
    parser.add_argument("--power-cuts", type=int, default=20, metavar="N",
                        help="power cuts after the checks (default 20; 0: none)")
    parser.add_argument("--only-power-cuts", action="store_true", help="the power-cut run without the checks' boot")
    parser.add_argument("--seed", type=int, help="the cuts' moments (default: drawn, and printed)")
    args = parser.parse_args()
    qemulab.configure("system lab")
    started = time.monotonic()
    cache = Path(os.environ.get("SYSTEMLAB_CACHE") or "/var/cache/tiltpuzzle-systemlab")
    out = Path(os.environ.get("SYSTEMLAB_OUT") or HERE / ".out")
    try:
        step("host tools")
        missing = [tool for tool in ("qemu-system-x86_64", "mmdebstrap", "mkfs.ext4", "gcc", "apt-get",
                                     "dpkg-deb", "depmod", "modprobe", "make") if not shutil.which(tool)]
        if args.install == "package" and not args.deb:
            missing += [tool for tool in ("dpkg-buildpackage", "hardening-check", "lintian") if not shutil.which(tool)]
        missing += [str(p) for p in (qemulab.BUSYBOX, qemulab.QBOOT) if not p.exists()]
        if missing:
            fail(f"missing {', '.join(missing)} (Debian: qemu-system-x86 mmdebstrap e2fsprogs "
                 "busybox-static gcc libc6-dev kmod make dpkg-dev debhelper devscripts lintian)")

        step("base image")
        kernel = qemulab.kernel_package(cache)
        image = base_image(cache, kernel)
        if args.image_only:
            return 0

        step("build")
        if not args.no_build:
            # The README's first step, on the host: the guest's make install then builds nothing.
            run(["make"], cwd=REPO, attempts=2)
        for program in ("tiltpuzzled", "tiltpuzzle", "tiltpuzzle-gui"):
            if not (REPO / ".build/release" / program).exists():
                fail(f"no .build/release/{program}: run make")

        deb_given = Path(args.deb).read_bytes() if args.deb else None
        hardened, hardening_notes = [], []
        step("helpers")
        if out.exists():
            shutil.rmtree(out)
        (out / "bin").mkdir(parents=True)
        for helper in HELPERS:
            run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-pthread", "-o", str(out / "bin" / helper),
                 str(KERNEL_LAB_GUEST / f"{helper}.c"), "-lm"])
        run(["gcc", "-O2", "-Wall", "-Wextra", "-Werror", "-static", "-o", str(out / "bin" / "powercut-player"),
             str(GUEST / "powercut-player.c")])
        if args.deb:
            (out / "deb").mkdir()
            (out / "deb" / Path(args.deb).name).write_bytes(deb_given)
        elif args.install == "package":
            step("package")
            (out / "deb").mkdir()
            made = build_package()
            step("hardening")
            hardened, hardening_notes = hardening(made, out)
            hardened += translations(made, out)
            shutil.move(str(made[0]), out / "deb" / made[0].name)
            for deb in made[1:]:
                deb.unlink()   # the window's package: checked above; nothing else here uses it

        results, guest_seconds = hardened + hardening_notes, 0.0
        if not args.only_power_cuts:
            step("boot")
            booted = time.monotonic()
            console = boot(qemu_command(image, out), out / "console.txt", args.timeout)
            guest_seconds = time.monotonic() - booted

            step("results")
            results_path = out / "results.txt"
            if not results_path.exists():
                fail("the guest wrote no results (did systemd reach systemlab.service?)", console[-60:])
            results += results_path.read_text(errors="replace").splitlines()
            if not any(line.startswith("done ") for line in results):
                results.append("FAIL the checks did not finish (the guest stopped or hung before the end)")

        if args.power_cuts and not (out / "deb").exists():
            results.append("power cuts: not run with --install make (each run installs the package)")
        elif args.power_cuts:
            step("power cuts")
            seed = args.seed if args.seed is not None else random.SystemRandom().randrange(1 << 32)
            print(f"  seed {seed} (again: --seed {seed}), {args.power_cuts} cuts", flush=True)
            cut_started = time.monotonic()
            checked, ages, boots, cut_notes = power_cuts(image, out, args.power_cuts, seed, args.timeout)
            results += [f"ok {name}" if verdict == "ok" else f"FAIL {name}: {why}" for verdict, name, why in checked]
            results += cut_notes
            if ages:
                ordered = sorted(ages)
                results.append(f"power cuts: {len(ages)}, seed {seed}; changes lost shown at most {ordered[-1]:.3f} s "
                               f"before the cut (median {ordered[len(ordered) // 2]:.3f} s; T = {powercut.T} s); "
                               f"boots median {sorted(boots)[len(boots) // 2]:.1f} s, all {time.monotonic() - cut_started:.0f} s")
                saves = powercut.save_latencies(out / "powercut", args.power_cuts)
                if saves:
                    results.append(f"power cuts: a move shown to its reply (about one save) median "
                                   f"{saves[len(saves) // 2] * 1e3:.0f} ms, worst {saves[-1] * 1e3:.0f} ms")

        passed = [line[3:] for line in results if line.startswith("ok ")]
        failed = [line[5:] for line in results if line.startswith("FAIL ")]
        notes = [line for line in results if not line.startswith(("ok ", "FAIL "))]
        for line in notes:
            print(f"  {line}")
        wall = time.monotonic() - started
        if failed:
            print(f"system lab: FAILED: {len(failed)} check(s) failed, {len(passed)} passed", file=sys.stderr)
            for line in failed:
                print(f"  FAIL {line}", file=sys.stderr)
            print(f"system lab: console, results, journal and logs in {out}", file=sys.stderr)
            print(f"system-lab: {len(passed)} passed, {len(failed)} failed")
            return 1
        print(f"system lab: PASS ({wall:.0f} s; guest {guest_seconds:.0f} s, TCG; details in {out})")
        print(f"system-lab: {len(passed)} passed, 0 failed")
        return 0
    except LabFailure as failure:
        # A step of the host's failed (the guest's checks are counted above).
        qemulab.report_failure(failure, out)
        return 1


if __name__ == "__main__":
    sys.exit(main())
