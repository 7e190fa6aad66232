#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The driver lab: the release tiltpuzzled against the kernel's own I2C accelerometer drivers.

Debian's kernel under QEMU with i2c-stub standing in for the I2C bus: each chip's
registers are preset so that its real driver probes, and the tilts are played by
writing its data registers. Out-of-tree hrtimer trigger modules are built once from
linux-source against the matching headers. See README.md beside this file.
Python 3, stdlib only; shares Tests/QEMULab/qemulab.py with the other QEMU labs.
"""

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
GUEST = HERE / "guest"
_spec = importlib.util.spec_from_file_location("qemulab", REPO / "Tests/QEMULab/qemulab.py")
qemulab = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(qemulab)
fail, step, begin, run = qemulab.fail, qemulab.step, qemulab.begin, qemulab.run

# The chips: how each is made to probe on i2c-stub and where its data live. A chip is
# one row; README.md says how to add one. The stub offers SMBus byte and word transfers
# only (functionality=0x007f0000), so regmap reads each register on its own, without
# st_sensors' auto-increment bit (LIS3DH's x is at 0x28, not 0xA8).
#   name: the lab's name for it     i2c: the driver's I2C device name     addr: its address
#   module: the driver module       presets: REG=VAL written before the driver probes
#   keep: REG:MASK:SECONDS cleared while it probes (a reset bit the driver waits on)
#   reg: the first data register    width: bytes per axis    endian: le or be
#   shift: the value's left shift   bits: real bits          unsigned: 1 if unsigned
#   axes: 2 (x, y) or 3             modes: polled, buffered (it has a buffer), held, shared,
#                                   or evdev (the driver makes an input device, no IIO one)
#   counts: raw counts per g, for a driver with no IIO scale to read (evdev)
#   polled_period: ms between readings when polled, for a driver that cannot be polled
#   at 100 Hz (st_sensors sleeps in each raw read: tilts at 100 Hz would be missed)
CHIPS = [
    dict(name="bmc150", module="bmc150-accel-i2c", i2c="bmc150_accel", addr=0x10, presets="0x00=0xFA",
         reg=0x02, width=2, endian="le", shift=4, bits=12, modes="polled,buffered,held,shared"),
    dict(name="kxcjk1013", module="kxcjk-1013", i2c="kxcj91008", addr=0x0F, reg=0x06, width=2, endian="le",
         shift=4, bits=12, modes="polled,buffered,held,shared"),
    dict(name="mxc4005", module="mxc4005", i2c="mxc6655", addr=0x15, reg=0x03, width=2, endian="be", shift=4,
         bits=12, modes="polled,buffered"),
    dict(name="lis3dh", module="st_accel_i2c", i2c="lis3dh", addr=0x18, presets="0x0F=0x33,0x8F=0x33",
         reg=0x28, width=2, endian="le", shift=4, bits=12, modes="polled,buffered", polled_period=50),
    dict(name="mma8452", module="mma8452", i2c="mma8452", addr=0x1C, presets="0x0D=0x2A,0x00=0x0F",
         keep="0x2B:0x40:3", reg=0x01, width=2, endian="be", shift=4, bits=12, modes="polled,buffered"),
    dict(name="kxsd9", module="kxsd9-i2c", i2c="kxsd9", addr=0x18, reg=0x00, width=2, endian="be", shift=4,
         bits=12, unsigned=1, modes="polled,buffered"),
    dict(name="da280", module="da280", i2c="da280", addr=0x27, presets="0x01=0x13", reg=0x02, width=2,
         endian="le", shift=2, bits=14, modes="polled"),
    dict(name="mxc6255", module="mxc6255", i2c="mxc6255", addr=0x15, presets="0x08=0x05", reg=0x00, width=1,
         endian="le", shift=0, bits=8, axes=2, modes="polled"),
    # No IIO device: an evdev accelerometer (a laptop's), which the driver polls every
    # 50 ms. WHO_AM_I 0x3A is a LIS3LV02DL: 12 bits right-justified and sign-extended
    # in 16, 1024 per g (counts), read byte by byte from OUTX_L (0x28) on.
    dict(name="lis3lv02d", module="lis3lv02d_i2c", i2c="lis3lv02d", addr=0x1D, presets="0x0F=0x3A",
         reg=0x28, width=2, endian="le", shift=0, bits=16, counts=1024, modes="evdev", polled_period=50),
]
# Game controllers, played through /dev/uhid by a program that is the controller to its
# driver (README.md, "Controllers"): the lab's name, the driver module, the program, the
# end of the motion node's name and the frame our hwdb gives it (docs/sensors.md).
SONY_FRAME = "1, 0, 0; 0, 0, -1; 0, 1, 0"
PADS = [
    dict(name="dualsense", module="hid-playstation", helper="uhid-pad -m dualsense", motion="Motion Sensors",
         matrix=SONY_FRAME),
    dict(name="dualshock4", module="hid-sony", helper="uhid-pad -m dualshock4", motion="Motion Sensors",
         matrix=SONY_FRAME),
    dict(name="dualshock3", module="hid-sony", helper="uhid-pad -m dualshock3", motion="Motion Sensors",
         matrix=SONY_FRAME, silent_at_rest=True),
    dict(name="switchpro", module="hid-nintendo", helper="uhid-nintendo", motion="Pro Controller IMU",
         matrix="0, -1, 0; 1, 0, 0; 0, 0, 1"),
    dict(name="wiimote", module="hid-wiimote", helper="uhid-wiimote", motion="Wii Remote Accelerometer",
         matrix="0, -1, 0; -1, 0, 0; 0, 0, 1", silent_at_rest=True),
]
# silent_at_rest: the driver's fuzz (hid-sony's 4 for the DualShock 3's 113 per g,
# hid-wiimote's 2 for about 104) is above the lab's noise, so a controller lying still
# sends no events at all, and the daemon, whose rate windows start again after a pause
# of a second, has no rate to measure: the rate is then the samples' while it moves, and
# every moving reading of the tilts after the replug must reach the client.
MOVING_READINGS_PER_TILT = 25   # tiltplay.h: 13 up, 12 down (the 3 held are no change)
# What the guest loads besides the drivers (with their dependencies).
MODULES = ["i2c-stub", "i2c-dev", "configfs", "industrialio", "kfifo_buf", "industrialio-triggered-buffer", "uhid",
           "evdev"]
# Built from linux-source (Debian builds none of them), in load order.
TRIGGER_SOURCES = ["drivers/iio/industrialio-configfs.c", "drivers/iio/industrialio-sw-trigger.c",
                   "drivers/iio/trigger/iio-trig-hrtimer.c"]
HELPERS = [GUEST / "i2c-accel.c", GUEST / "iio-holder.c", GUEST / "uhid-pad.c", GUEST / "uhid-nintendo.c",
           GUEST / "uhid-wiimote.c", REPO / "Tests/KernelLab/guest/lab-client.c"]
TILTS = ["right", "down", "left", "up"]


# --- The hrtimer trigger, built against the kernel's headers -------------------------

def trigger_modules(root, version, kit):
    """industrialio-configfs, industrialio-sw-trigger and iio-trig-hrtimer, built out of
    tree from linux-source-X.Y of the image's own version, with its headers (all by
    apt-get download, nothing installed); returns their paths in the kit, in load order."""
    package_version = run(["dpkg-deb", "-f", str(next(root.parent.glob("linux-image-*.deb"))), "Version"]).strip()
    series = ".".join(version.split(".")[:2])
    flavour = version.split("-", 2)[-1]                  # 6.1.0-57-amd64 -> amd64
    abi = version[: -len(flavour) - 1]                   # 6.1.0-57
    work = root.parent / "triggers"
    work.mkdir()
    packages = [f"linux-source-{series}={package_version}", f"linux-headers-{version}",
                f"linux-headers-{abi}-common", f"linux-kbuild-{series}={package_version}"]
    run(["apt-get", "download", *packages], cwd=work)
    tree = work / "root"
    for deb in work.glob("*.deb"):
        run(["dpkg-deb", "-x", str(deb), str(tree)])
        deb.unlink()
    headers = tree / "usr/src" / f"linux-headers-{version}"
    # Its Makefile includes the common headers' by absolute path.
    makefile = headers / "Makefile"
    makefile.write_text(makefile.read_text().replace("include /usr/src/", f"include {tree}/usr/src/"))
    tarball = next((tree / "usr/src").glob(f"linux-source-{series}.tar.*"))
    top = f"linux-source-{series}"
    run(["tar", "-xf", str(tarball), "-C", str(work)] + [f"{top}/{s}" for s in TRIGGER_SOURCES])
    build = work / "build"
    build.mkdir()
    for source in TRIGGER_SOURCES:
        shutil.copy2(work / top / source, build)
    names = [Path(s).stem for s in TRIGGER_SOURCES]
    (build / "Kbuild").write_text("obj-m := " + " ".join(f"{n}.o" for n in names) + "\n")
    run(["make", "-C", str(headers), f"M={build}", "modules"])
    target = kit / "lib/modules" / version / "extra"
    target.mkdir(parents=True)
    for name in names:
        shutil.copy2(build / f"{name}.ko", target)
    return [f"/lib/modules/{version}/extra/{name}.ko" for name in names]


# --- Checking -------------------------------------------------------------------

def records(files, run_name):
    out = []
    for line in files.get(f"{run_name}-client.log", []):
        if line[:1].isdigit():
            t, body = line.split(" ", 1)
            out.append((int(t), json.loads(body)))
    return out


def tilt_latencies(client, device):
    """The tilts are exactly TILTS, each moving a tile, moves 1 to 4, and the device
    played them; returns the latencies (ms) from each reading written to its event."""
    tilts = [(t, m["direction"], m["moved"]) for t, m in client if m["type"] == "tilt"]
    if [(d, moved) for _, d, moved in tilts] != [(d, True) for d in TILTS]:
        fail(f"tilt events {[(d, moved) for _, d, moved in tilts]}, expected {TILTS}, each moving a tile")
    moves = [m["moves"] for _, m in client if m["type"] == "move"]
    if moves != [1, 2, 3, 4]:
        fail(f"moves {moves}, expected 1 to 4")
    fires = [(w[2], int(w[3])) for w in device if w[:1] == ["fire"]]
    if [d for d, _ in fires] != TILTS:
        fail(f"the device played {fires}")
    latencies = sorted((t - fired) / 1e6 for (t, _, _), (_, fired) in zip(tilts, fires))
    if latencies[0] <= 0:
        fail(f"a tilt event came before its reading was written: {latencies}")
    return latencies


def check_run(files, chip, mode, tolerance):
    """One run's checks; returns its figures."""
    name = f"{chip['name']}-{mode}"
    client = records(files, name)
    device = [line.split() for line in files.get(f"{name}-device.log", [])]

    begin(f"{name}: the sensor")
    statuses = [m["status"] for _, m in client if m["type"] == "sensor"]
    # The greeting says idle when the claim had not started the sensor yet; a new rate is
    # another active.
    seen = [s for i, s in enumerate(statuses) if i == 0 or s != statuses[i - 1]]
    held = mode in ("held", "shared")
    want = ["busy", "active"] if held else ["active"]
    if seen[seen[:1] == ["idle"]:] != want:
        fail(f"sensor statuses {statuses}, expected {want}")
    if mode == "shared":
        # The other program opens the node every 700 ms and the node is free between:
        # the daemon must see it and leave the buffer to it, never take the node.
        holder = dict(line.split(" ", 1) for line in files.get(f"{name}-holder.log", []) if " " in line)
        if int(holder.get("refused", "-1")) != 0 or int(holder.get("read", "0")) <= 0:
            fail(f"the program reading every 700 ms was refused {holder.get('refused')} times "
                 f"and read {holder.get('read')} bytes (0 and some expected)")
    if held:
        busy = next(m for _, m in client if m["type"] == "sensor" and m["status"] == "busy")
        message = busy.get("message", "")
        if "in use by another program" not in message or "tilting resumes when it is free" not in message:
            fail(f"the busy status says {message!r}")
    sensor = [m for _, m in client if m["type"] == "sensor"][-1]
    buffered = mode not in ("polled", "evdev")
    if mode == "evdev":
        node = dict(line.split("=", 1) for line in files.get(f"{name}-node.log", []) if "=" in line)
        if sensor.get("kind") != "evdev" or sensor.get("device") != node.get("node"):
            fail(f"the sensor used was {sensor.get('kind')} {sensor.get('device')}, expected evdev {node.get('node')}")
    during = dict(l.split("=", 1) for l in files.get(f"{name}-sysfs-during.log", []) if "=" in l)
    if mode != "evdev" and during.get("buffer/enable", "0") != ("1" if buffered else "0"):
        fail(f"buffer/enable was {during.get('buffer/enable')} while the daemon read the sensor "
             f"({'buffered' if buffered else 'polled'} expected)")
    triggers = {w[0]: w[3] for w in (line.split() for line in files.get("chips.log", [])) if len(w) == 4}
    if buffered and during.get("trigger/current_trigger") != triggers.get(chip["name"]):
        fail(f"the trigger in use was {during.get('trigger/current_trigger')!r}, "
             f"expected the driver's own name {triggers.get(chip['name'])!r}")

    begin(f"{name}: the tilts")
    latencies = tilt_latencies(client, device)

    begin(f"{name}: the rate")
    samples = [m["t"] for _, m in client if m["type"] == "sample"]
    if len(samples) < 50:
        fail(f"only {len(samples)} samples reached the client")

    def rate(times):
        return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0

    whole = rate(samples)
    reported = sensor.get("rate")
    # A measured rate is sent when it differs from the one reported before; it is the
    # rate of the seconds before it was sent (the samples' t and the client's times are
    # both the guest's CLOCK_MONOTONIC). The lab measures over the daemon's own window:
    # on a loaded machine the rate drifts within a run.
    actives = [(t, m) for t, m in client if m["type"] == "sensor" and m["status"] == "active"]
    # No new rate sent: the daemon's first window (2 s) came within 5 % of the rate asked.
    measured = rate([t for t in samples if t <= samples[0] + 2])
    if len(actives) > 1:
        # The daemon's windows: 2 s for its first measurement, 5 s after (RateMeter).
        sent = actives[-1][0] / 1e9
        window = 2 if len(actives) == 2 else 5
        measured = rate([t for t in samples if sent - window <= t <= sent])
    if reported is None or abs(reported - measured) > tolerance * measured:
        fail(f"the sensor reports {reported} samples/s; {measured:.1f} arrived (over the run: {whole:.1f})")

    begin(f"{name}: sysfs put back")
    before = dict(l.split("=", 1) for l in files.get(f"{name}-sysfs-before.log", []) if "=" in l)
    after = dict(l.split("=", 1) for l in files.get(f"{name}-sysfs-after.log", []) if "=" in l)
    if not before and mode != "evdev":
        fail("no sysfs snapshot")
    changed = {k: (before.get(k), after.get(k)) for k in set(before) | set(after) if before.get(k) != after.get(k)}
    if changed:
        fail("sysfs left changed: " + "; ".join(f"{k} {a!r} -> {b!r}" for k, (a, b) in sorted(changed.items())))
    median = latencies[len(latencies) // 2] if len(latencies) % 2 else sum(latencies[1:3]) / 2
    return {"median_ms": round(median, 2), "max_ms": round(latencies[-1], 2),
            "rate_measured": round(measured, 1), "rate_reported": reported, "rate_run": round(whole, 1),
            "buffered": buffered}


def controller_hwdb(out):
    """udev/*.hwdb compiled alone into a hwdb.bin for the guest's udevd (which has
    none of the system's): what gives a controller its frame."""
    root = out / "hwdb-root"
    shutil.rmtree(root, ignore_errors=True)
    (root / "etc/udev/hwdb.d").mkdir(parents=True)
    for source in (REPO / "udev").glob("*.hwdb"):
        shutil.copy2(source, root / "etc/udev/hwdb.d")
    tool = shutil.which("systemd-hwdb") or fail("no systemd-hwdb (Debian: udev)")
    run([tool, "update", "--strict", "--root", str(root)])
    return root / "etc/udev/hwdb.bin"


def check_pad(files, pad):
    """A controller's run: the node found, four tilts with an unplug and a replug
    between the second and the third; returns its figures."""
    name = pad["name"]
    client = records(files, name)
    device = [line.split() for line in files.get(f"{name}-device.log", [])]
    found = dict(line.split("=", 1) for line in files.get(f"{name}-nodes.log", []) if "=" in line)

    begin(f"{name}: the node found")
    sensors = [m for _, m in client if m["type"] == "sensor"]
    actives = [m for m in sensors if m["status"] == "active"]
    if not actives or any(m.get("kind") != "evdev" or m.get("device") != found.get("motion") for m in actives):
        fail(f"the sensor used was {[(m.get('kind'), m.get('device')) for m in actives]}; "
             f"the motion node is {found.get('motion')} (gamepad {found.get('gamepad')}, touchpad "
             f"{found.get('touchpad')}, others{found.get('others')})")
    if not all(m.get("name", "").endswith(pad["motion"]) for m in actives):
        fail(f"the sensor's name is {actives[0].get('name')!r}, expected one ending in {pad['motion']!r}")
    if found.get("matrix") != pad["matrix"]:
        fail(f"udev gave the motion node ACCEL_MOUNT_MATRIX={found.get('matrix')!r}, expected {pad['matrix']!r}")
    if name == "wiimote":
        # The driver asks for buttons and accelerometer (0x31) while the node is open.
        modes = [w[1] for w in device if w[:1] == ["mode"]]
        first_fire = next(i for i, w in enumerate(device) if w[:1] == ["fire"])
        if "31" not in [w[1] for w in device[:first_fire] if w[:1] == ["mode"]]:
            fail(f"the remote was never asked for report mode 0x31 before the first tilt (modes asked: {modes})")

    begin(f"{name}: unplugged and plugged back")
    statuses = [m["status"] for m in sensors]
    seen = [s for i, s in enumerate(statuses) if i == 0 or s != statuses[i - 1]]
    # The client attached before the controller came: the greeting says absent (or idle).
    if seen[seen[:1] in (["idle"], ["absent"]):] != ["active", "absent", "active"]:
        fail(f"sensor statuses {statuses}, expected active (plugged in), absent (pulled out), active (plugged back)")

    begin(f"{name}: the tilts (none lost or doubled across the unplug)")
    latencies = tilt_latencies(client, device)

    begin(f"{name}: the rate")
    # After the replug: the samples from the active that followed the absent on, and the
    # rate the daemon last sent, over its own window before it (2 s for its first
    # measurement of a source, 5 s after: docs/sensors.md, "Rates").
    events = [(t, m) for t, m in client if m["type"] == "sensor"]
    back = max(i for i, (_, m) in enumerate(events) if m["status"] == "absent") + 1
    after = [(t, m) for t, m in events[back:] if m["status"] == "active"]
    samples = [m["t"] for t, m in client if m["type"] == "sample" and t >= events[back][0]]

    def rate(times):
        return (len(times) - 1) / (times[-1] - times[0]) if len(times) > 1 and times[-1] > times[0] else 0

    median = latencies[len(latencies) // 2] if len(latencies) % 2 else sum(latencies[1:3]) / 2
    times = {w[0]: float(w[2]) - float(w[1]) for w in (l.split() for l in files.get("pads-time.log", [])) if len(w) == 3}
    figures = {"median_ms": round(median, 2), "max_ms": round(latencies[-1], 2), "node": found.get("motion"),
               "node_name": found.get("name"), "guest_seconds": round(times.get(name, 0), 1)}
    if pad.get("silent_at_rest"):
        if len(samples) < 2 * MOVING_READINGS_PER_TILT:
            fail(f"{len(samples)} samples reached the client after the replug, fewer than the "
                 f"{2 * MOVING_READINGS_PER_TILT} moving readings of its two tilts")
        # Bursts: samples less than 0.1 s apart, the motion of one tilt.
        bursts, current = [], samples[:1]
        for t in samples[1:]:
            if t - current[-1] < 0.1:
                current.append(t)
            else:
                bursts.append(current)
                current = [t]
        bursts.append(current)
        moving = [b for b in bursts if len(b) >= 10]
        measured = sum(len(b) - 1 for b in moving) / sum(b[-1] - b[0] for b in moving) if moving else 0
        return figures | {"rate_measured": round(measured, 1), "rate_reported": after[-1][1].get("rate") if after else None,
                          "rate_run": round(measured, 1)}
    if len(samples) < 50 or len(after) < 2:
        fail(f"{len(samples)} samples reached the client after the replug, and {len(after)} active statuses "
             "(the second with the rate measured)")

    sent, last = after[-1][0] / 1e9, after[-1][1]
    window = 2 if len(after) == 2 else 5
    reported = last.get("rate")
    measured = rate([t for t in samples if sent - window <= t <= sent])
    if reported is None or abs(reported - measured) > 0.1 * measured:
        fail(f"the sensor reports {reported} samples/s; {measured:.1f} arrived in the {window} s before")
    return figures | {"rate_measured": round(measured, 1), "rate_reported": reported,
                      "rate_run": round(rate(samples), 1)}


def check_daemon(files):
    begin("the daemon")
    log = files.get("daemon.log", [])
    if not log or log[-1] != "exit 0":
        fail(f"the daemon did not stop cleanly: {log[-5:]}")
    uid = [line.split()[1] for line in files.get("daemon-id.log", []) if line.startswith("Uid:")]
    if uid != ["999"]:
        fail(f"the daemon ran as uid {uid}, expected 999 (tiltpuzzle)")
    tried = [line for line in log if "cannot enable the buffer" in line]
    if tried:
        fail(f"the daemon tried a buffer it could not use: {tried[0]}")


# --- Main -----------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--daemon", help="a built tiltpuzzled (default: swift build -c release)")
    parser.add_argument("--scratch-path", help="swift build's --scratch-path")
    parser.add_argument("--chips", help="a comma-separated subset of: " + ", ".join(c["name"] for c in CHIPS + PADS))
    parser.add_argument("--period", type=int, default=10, help="ms between readings (default 10: 100 Hz)")
    parser.add_argument("--trigger-hz", type=int, default=100, help="the hrtimer trigger's rate (default 100)")
    parser.add_argument("--tolerance", type=float, default=0.1,
                        help="how far the reported rate may be from the measured one (default 0.1: 10 %%; "
                             "measured over the daemon's own window before its report)")
    parser.add_argument("--accel", choices=["auto", "kvm", "tcg"], default=os.environ.get("KERNEL_LAB_ACCEL", "auto"))
    parser.add_argument("--timeout", type=int, default=900, help="seconds the guest may take (default 900)")
    args = parser.parse_args()
    qemulab.configure("driver lab")
    started = time.monotonic()
    cache = qemulab.cache_dir("DRIVER_LAB_CACHE", "tiltpuzzle-driver-lab")
    out = Path(os.environ.get("DRIVER_LAB_OUT") or HERE / ".out")
    chips, pads = CHIPS, PADS
    if args.chips:
        wanted = args.chips.split(",")
        chips = [c for c in CHIPS if c["name"] in wanted]
        pads = [p for p in PADS if p["name"] in wanted]
        if len(chips) + len(pads) != len(wanted):
            print(f"driver lab: unknown chip in {args.chips}", file=sys.stderr)
            return 64
    try:
        step("host tools")
        missing = [tool for tool in ("qemu-system-x86_64", "gcc", "make", "apt-get", "dpkg-deb", "depmod",
                                     "modprobe", "udevadm", "ldd", "tar") if not shutil.which(tool)]
        missing += [str(p) for p in (qemulab.BUSYBOX, qemulab.QBOOT) if not p.exists()]
        if missing:
            fail(f"missing {', '.join(missing)} (Debian: qemu-system-x86 busybox-static gcc make libc6-dev kmod udev)")

        step("kernel and trigger modules")
        modules = MODULES + [c["module"] for c in CHIPS + PADS]
        # The kit holds these modules only: another list is another kit.
        key = hashlib.sha256("\0".join(modules + TRIGGER_SOURCES).encode()).hexdigest()[:8]
        kit = qemulab.kernel_kit(cache, modules, extra=trigger_modules, key=key)
        out.mkdir(parents=True, exist_ok=True)

        step("daemon")
        daemon = qemulab.build_daemon(REPO, args.daemon, args.scratch_path)

        step("helpers")
        helpers = qemulab.build_helpers(HELPERS, out, includes=[REPO / "Tests/KernelLab/guest"])

        step("initramfs")
        addresses = sorted({c["addr"] for c in chips})
        config = {"LAB_STUB_ADDRS": ",".join(f"0x{a:02x}" for a in addresses), "LAB_PERIOD_MS": args.period,
                  "LAB_TRIGGER_HZ": args.trigger_hz, "LAB_USER": "tiltpuzzle"}
        rows = [" ".join(str(v) for v in (c["name"], c["i2c"], f"0x{c['addr']:02x}", f"0x{c['reg']:02x}", c["width"],
                                          c["endian"], c["shift"], c["bits"], c.get("unsigned", 0), c.get("axes", 3),
                                          c["modes"], c.get("presets") or "-", c.get("keep") or "-",
                                          c.get("polled_period") or "-", c.get("counts") or "-"))
                for c in chips]
        initrd = out / "initramfs.cpio"
        chips_file = out / "chips"
        chips_file.write_text("\n".join(rows) + "\n")
        pads_file = out / "pads"
        pads_file.write_text("".join(f"{p['name']} {p['helper']}\n" for p in pads))
        qemulab.daemon_initramfs(REPO, kit, daemon, helpers, config, GUEST / "init", initrd,
                                 extra_files={"/etc/lab/chips": chips_file, "/etc/lab/pads": pads_file,
                                              "/etc/udev/hwdb.bin": controller_hwdb(out)})
        print(f"  {initrd.stat().st_size / 1e6:.0f} MB")

        step("boot")
        accel, guest_seconds = qemulab.run_guest(kit, initrd, out, args.accel, args.timeout)
        results_path = out / "results.txt"

        step("results")
        files = qemulab.sections(results_path.read_text(errors="replace"))
        summary = {"kernel": (kit / "version").read_text().strip(), "accel": accel,
                   "guest_seconds": round(guest_seconds, 1), "runs": {}}
        for chip in chips:
            for mode in chip["modes"].split(","):
                summary["runs"][f"{chip['name']}-{mode}"] = check_run(files, chip, mode, args.tolerance)
        for pad in pads:
            summary["runs"][pad["name"]] = check_pad(files, pad)
        check_daemon(files)
        summary["wall_seconds"] = round(time.monotonic() - started, 1)
        (out / "results.json").write_text(json.dumps(summary, indent=2) + "\n")
        print(f"  {'run':20} {'latency median':>15} {'max':>8} {'rate measured':>14} {'reported':>9}")
        for name, r in summary["runs"].items():
            print(f"  {name:20} {r['median_ms']:>12} ms {r['max_ms']:>5} ms {r['rate_measured']:>10} /s "
                  f"{r['rate_reported'] if r['rate_reported'] is not None else '-':>7} /s" + (f"  {r['node']} \"{r['node_name']}\", {r['guest_seconds']} s in the guest"
                                                  if "node" in r else ""))
        print(f"driver lab: PASS ({summary['wall_seconds']} s; guest {summary['guest_seconds']} s, {accel}; "
              f"details in {out})")
        print(f"driver-lab: {qemulab.PASSED + 1} passed, 0 failed")
        return 0
    except qemulab.LabFailure as failure:
        qemulab.report_failure(failure, out)
        return 1


if __name__ == "__main__":
    sys.exit(main())
