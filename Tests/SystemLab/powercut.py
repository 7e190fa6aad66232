# SPDX-License-Identifier: GPL-3.0-or-later
"""The power-cut run's verdict (README.md, "Power cuts"), from what the boots wrote.

Each boot N left in boot-N/: `play.txt`, the player's log (every request sent and
every line shown, with the guest's monotonic time); from boot 1 on also `game.json`,
the saved game the cut left (copied before the daemon started), `served.txt`, the
greeting of a client that only looked, and `daemon.txt`, the daemon's log.

The client's view is replayed line by line into snapshots of what it was shown
(revision, board, move counter, undo and redo history, sensitivity, records); the
game the next boot found must be one of them, whole, at or after the last change
whose reply the client had received, and no older than T: the first change it lacks
was shown less than T before the cut. Python 3, standard library only.
"""

import json
import re
from pathlib import Path

# The bound the docs state (docs/tiltpuzzled.8.md, POWER LOSS), in seconds.
T = 2.0
# The records' times cross JSON twice; a little slack for the last digit.
TIME_SLACK = 0.001


def tokens(text):
    """A saved history ("rd3u") as a list of one-tile letters."""
    out = []
    for letter, count in re.findall(r"([udlr])(\d*)", text):
        out += [letter] * int(count or 1)
    return out


def records_key(records):
    return tuple(sorted((r["size"], round(float(r["bestTime"]), 3), int(r["fewestMoves"])) for r in records))


class View:
    """What the client knows of the game, line by line."""

    def __init__(self, history, defaults):
        self.undo, self.redo = history
        self.sensitivity = defaults
        self.limit = 1000
        self.state = None

    def key(self):
        s = self.state
        return (s["revision"], s["size"], tuple(s["board"]), s["moves"], tuple(self.undo), tuple(self.redo),
                self.sensitivity, records_key(s["records"]))

    def apply(self, message):
        """Takes one line; True when it changed the game."""
        kind = message.get("type")
        if kind == "state":
            fresh = self.state is not None
            self.state = {k: message[k] for k in ("revision", "size", "board", "moves", "records")}
            self.state["board"] = list(message["board"])
            if fresh:
                self.undo, self.redo = [], []   # a new game starts with no history
            return True
        if kind == "settings":
            self.sensitivity = (float(message["trigger"]), float(message["release"]))
            return True
        if kind == "move":
            s = self.state
            board = s["board"]
            board[message["to"]], board[message["from"]] = board[message["from"]], s["size"] ** 2 - 1
            s["revision"], s["moves"] = message["revision"], message["moves"]
            letter = message["direction"][0]
            if message["cause"] == "undo":
                self.redo.append(self.undo.pop())
            elif message["cause"] == "redo":
                self.undo.append(self.redo.pop())
            else:
                self.undo.append(letter)
                self.redo = []
                del self.undo[:-self.limit]
            return True
        if kind == "solved":
            s = self.state
            records = {r["size"]: dict(r) for r in s["records"]}
            entry = records.setdefault(s["size"], {"size": s["size"], "bestTime": message["time"],
                                                   "fewestMoves": message["moves"]})
            if message["newBestTime"]:
                entry["bestTime"] = message["time"]
            if message["newFewestMoves"]:
                entry["fewestMoves"] = message["moves"]
            s["records"] = list(records.values())
            return True
        return False


def read_log(path):
    """(time, mark, parsed JSON) for every whole line; a line cut short by the power is dropped."""
    lines = []
    for raw in path.read_text(errors="replace").splitlines():
        parts = raw.split(" ", 2)
        if len(parts) != 3:
            continue
        try:
            lines.append((float(parts[0]), parts[1], json.loads(parts[2])))
        except ValueError:
            continue
    return lines


def replay(lines, history, defaults, limit):
    """The snapshots (time, key) the client was shown, the snapshot index of the last
    change acknowledged, and the time of the log's last line (the cut, within the
    player's 20 ms tick)."""
    view = View(history, defaults)
    view.limit = limit
    snapshots, changes, requests = [], [], {}
    consumed = 0          # change messages attributed to requests answered so far
    acked = -1
    for time, mark, message in lines:
        if mark == ".":
            continue          # the player's tick: only its time counts
        if mark == ">":
            if not requests:
                consumed = len(changes)   # the greeting's state and settings answer no request
            requests[message["id"]] = message
            continue
        if view.apply(message):
            snapshots.append((time, view.key()))
            changes.append(message.get("type"))
        if message.get("type") in ("reply", "error") and "id" in message:
            request = requests.get(message["id"], {})
            # Replies come in request order, after the changes of their request (docs/protocol.md).
            if message["type"] == "reply":
                if request.get("cmd") in ("tilt", "undo", "redo"):
                    for _ in range(message.get("moved", 0)):
                        consumed += 1                      # the move
                        if consumed < len(changes) and changes[consumed] == "solved":
                            consumed += 1
                elif request.get("cmd") in ("new", "configure"):
                    consumed += 1
            acked = consumed
    return snapshots, acked, lines[-1][0] if lines else None


def saved_key(saved, defaults):
    p = saved["puzzle"]
    sensitivity = defaults
    if "sensitivity" in saved:
        sensitivity = (float(saved["sensitivity"]["trigger"]), float(saved["sensitivity"]["release"]))
    return (saved["revision"], p["size"], tuple(p["board"]), p["moves"], tuple(tokens(p["history"]["undo"])),
            tuple(tokens(p["history"]["redo"])), sensitivity, records_key(saved.get("records", [])))


def same(a, b):
    """Keys equal, the records' times within TIME_SLACK."""
    if a[:7] != b[:7] or len(a[7]) != len(b[7]):
        return False
    return all(x[0] == y[0] and x[2] == y[2] and abs(x[1] - y[1]) <= TIME_SLACK for x, y in zip(a[7], b[7]))


def save_latencies(folder, boots):
    """Seconds from a round's last `move` shown to the first reply after it: about one
    save, since a reply waits for its change to be on disk."""
    latencies = []
    for n in range(boots):
        last_move = None
        for time, mark, message in read_log(folder / f"boot-{n}" / "play.txt"):
            if mark != "<":
                continue
            if message.get("type") == "move":
                last_move = time
            elif message.get("type") == "reply" and last_move is not None:
                latencies.append(time - last_move)
                last_move = None
    return sorted(latencies)


def check(folder, cuts):
    """Returns (results, figures): results a list of ("ok"|"FAIL", name, why), figures
    the loss ages (seconds) of the cuts."""
    results, ages, lost_counts = [], [], []
    first = read_log(folder / "boot-0" / "play.txt")
    greeting = [m for _, mark, m in first if mark == "<" and m.get("type") == "settings"]
    defaults = (float(greeting[0]["trigger"]), float(greeting[0]["release"])) if greeting else None
    history, limit = ([], []), 1000
    for n in range(cuts):
        name = f"cut-{n + 1}"
        here, after = folder / f"boot-{n}", folder / f"boot-{n + 1}"
        lines = read_log(here / "play.txt")
        snapshots, acked, cut_time = replay(lines, history, defaults, limit)
        if not snapshots:
            results.append(("FAIL", name, f"boot {n}: the player was shown nothing (see {here}/play.txt)"))
            return results, ages, lost_counts
        try:
            saved = json.loads((after / "game.json").read_text())
            loaded = saved_key(saved, defaults)
        except (OSError, ValueError, KeyError) as error:
            results.append(("FAIL", f"{name}-file", f"boot {n + 1} found no readable game: {error}"))
            return results, ages, lost_counts
        matches = [i for i, (_, key) in enumerate(snapshots) if same(key, loaded)]
        if not matches:
            near = [key for _, key in snapshots if key[0] == loaded[0]]
            why = "a mix: its revision was shown with other contents" if near else "never shown"
            results.append(("FAIL", f"{name}-shown", f"the game after the cut (revision {loaded[0]}) was {why}"))
        else:
            results.append(("ok", f"{name}-shown", ""))
            k = matches[-1]
            if acked > k + 1:
                results.append(("FAIL", f"{name}-acknowledged", f"a change acknowledged before the cut is lost "
                                f"(snapshot {acked - 1} acknowledged, {k} loaded)"))
            else:
                results.append(("ok", f"{name}-acknowledged", ""))
            later = [t for t, key in snapshots[k + 1:] if not same(key, loaded)]
            age = cut_time - later[0] if later else 0.0
            ages.append(age)
            lost_counts.append(len(later))
            results.append(("ok" if age <= T else "FAIL", f"{name}-recent",
                            f"it lacks changes shown {age:.3f} s before the cut (T = {T} s)"))
        served = [m for _, mark, m in read_log(after / "served.txt") if mark == "<"]
        state = next((m for m in served if m.get("type") == "state"), None)
        settings = next((m for m in served if m.get("type") == "settings"), None)
        p = saved["puzzle"]
        if (state is None or settings is None or state["revision"] != saved["revision"] or state["board"] != p["board"]
                or state["moves"] != p["moves"] or state["canUndo"] != bool(p["history"]["undo"])
                or state["canRedo"] != bool(p["history"]["redo"])
                or records_key(state["records"]) != records_key(saved.get("records", []))
                or (float(settings["trigger"]), float(settings["release"])) != loaded[6]):
            results.append(("FAIL", f"{name}-served", f"the daemon does not serve the saved game ({after}/served.txt)"))
        else:
            results.append(("ok", f"{name}-served", ""))
        log = (after / "daemon.txt").read_text(errors="replace") if (after / "daemon.txt").exists() else ""
        if re.search(r"set aside|cannot read|corrupt", log):
            results.append(("FAIL", f"{name}-loaded", "the daemon refused its own file: " +
                            next(line for line in log.splitlines() if re.search(r"set aside|cannot read|corrupt", line))))
        else:
            results.append(("ok", f"{name}-loaded", ""))
        history = (tokens(p["history"]["undo"]), tokens(p["history"]["redo"]))
        limit = p["history"]["limit"]
    return results, ages, lost_counts


def vfat_note(folder):
    """What the daemon did with its state directory on a FAT card (guest/powercut)."""
    path = folder / "vfat.txt"
    if not path.exists():
        return ["vfat: not tried (no mkfs.vfat on the host: dosfstools)"]
    text = path.read_text(errors="replace")
    served = (folder / "vfat-served.txt").exists() and '"type":"state"' in (folder / "vfat-served.txt").read_text()
    saved = "game.json" in text
    lines = [line for line in text.splitlines() if "tiltpuzzled" in line or "cannot" in line or "exit status" in line]
    return [f"vfat: the daemon {'served a game' if served else 'served nothing'}, "
            f"{'saved it' if saved else 'saved no game'}; " + " / ".join(lines[-3:])]


def self_test(work):
    """The verdict on made-up boots, before any real one: a good game passes, and a mix,
    a lost acknowledged change and an old game each fail (so the checks can fail)."""
    log = [
        '0.0 < {"type":"hello","protocol":1,"version":"0"}',
        '0.1 < {"type":"state","revision":5,"size":2,"board":[0,1,3,2],"empty":2,"moves":0,"solved":false,'
        '"canUndo":false,"canRedo":false,"time":0,"records":[]}',
        '0.1 < {"type":"settings","trigger":20.0,"release":10.0}',
        '0.2 > {"cmd":"tilt","direction":"left","id":1}',
        '0.2 > {"cmd":"tilt","direction":"right","id":2}',
        '0.3 < {"type":"move","revision":6,"from":3,"to":2,"direction":"left","cause":"command","moves":1}',
        '0.4 < {"type":"move","revision":7,"from":2,"to":3,"direction":"right","cause":"command","moves":2}',
        '0.5 < {"type":"reply","id":1,"cmd":"tilt","ok":true,"moved":1}',
        '%s > {"cmd":"undo","id":3}',
    ]

    def verdict(revision, board, moves, undo, cut):
        folder = work / f"self-test-{revision}-{cut}-{''.join(map(str, board))}"
        (folder / "boot-0").mkdir(parents=True)
        (folder / "boot-1").mkdir()
        (folder / "boot-0" / "play.txt").write_text("\n".join(log) % cut + "\n")
        saved = {"format": 1, "revision": revision, "time": 1.0, "puzzle": {"size": 2, "board": board, "moves": moves,
                 "history": {"limit": 1000, "undo": undo, "redo": ""}}}
        (folder / "boot-1" / "game.json").write_text(json.dumps(saved))
        state = {"type": "state", "revision": revision, "size": 2, "board": board, "moves": moves,
                 "canUndo": bool(undo), "canRedo": False, "records": []}
        (folder / "boot-1" / "served.txt").write_text(
            f"0 < {json.dumps(state)}\n0 < " + '{"type":"settings","trigger":20.0,"release":10.0}\n')
        (folder / "boot-1" / "daemon.txt").write_text("restored the game\n")
        return {name: verdict for verdict, name, _ in check(folder, 1)[0]}

    good = verdict(6, [0, 1, 2, 3], 1, "l", "1.0")
    problems = []
    if any(v != "ok" for v in good.values()):
        problems.append(f"a game shown, acknowledged and recent: {good}")
    if verdict(6, [0, 1, 3, 2], 1, "l", "1.0").get("cut-1-shown") != "FAIL":
        problems.append("a mix (revision 6, the board of 5) passed")
    if verdict(5, [0, 1, 3, 2], 0, "", "1.0").get("cut-1-acknowledged") != "FAIL":
        problems.append("a game without an acknowledged change passed")
    if verdict(6, [0, 1, 2, 3], 1, "l", "9.0").get("cut-1-recent") != "FAIL":
        problems.append(f"a game lacking a change shown {9.0 - 0.4} s before the cut passed (T = {T} s)")
    return problems
