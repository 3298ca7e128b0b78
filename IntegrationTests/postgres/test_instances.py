#!/usr/bin/env python3
"""Two `taptrace serve` instances on one database (issue 36, items 3 and 4).

Starts two instances at once, each `--db URL --port 0`, on a fresh database, and checks:

  a. concurrency: 16 writer threads spread over both instances (stored dispatches, new
     versions with and without `If-Match`, pairs of writers on different instances racing
     with the same `If-Match`, replays, scenes deleted on one instance while the other has
     them cached) and 8 reader threads paging through scene lists and run histories on both.
     Afterwards: every acknowledged run reads the same from both instances; each scene's
     versions are 1..N with N one more than the acknowledged new versions; of two racing
     `If-Match` writes exactly one wins and the other gets 409; every run ran against the
     version it reports (its result equals a stateless dispatch of that version's document),
     and a run or a read never reports a version older than one already acknowledged; a
     deleted scene is 404 on the other instance (the scene, its runs, a dispatch to it);
     no 5xx anywhere.
  b. kill -9 of one instance during stored writes: every acknowledged run and version reads
     the same from the other instance and from the killed one once restarted.
  c. the database stopped (`--pause-cmd`) and started again (`--resume-cmd`) under load:
     meanwhile every answer comes within the client timeout (10 s) and is a success or a 503
     `application/problem+json` (stored dispatches are 503, `/health` is 503 problem+json);
     after the resume both instances serve again by themselves, `/health` 200 within 10 s.
     Skipped (and said so) without the two commands.

The database: a PostgreSQL URL is used only to create a database of the test's own
(`CREATE DATABASE` through psql) that both instances share and that is dropped at the end
(`DROP DATABASE … WITH (FORCE)`, which works even after a kill -9 left sessions): the
instances start on an empty database, so two instances creating the schema at once is covered
too, the exact counts (every run and version listed is one the test made) hold whatever else
the server holds, and nothing is left behind even when a check fails half-way. `--db sqlite`
shares a temporary SQLite file between the two instances instead (to develop without
PostgreSQL; part c is PostgreSQL's).

Usage: test_instances.py --taptrace BIN --db postgres://USER@HOST:PORT/DB|sqlite
                         [--pause-cmd CMD --resume-cmd CMD] [--duration S] [--keep]
"""
import argparse
import collections
import concurrent.futures
import copy
import json
import os
import pathlib
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
TIMEOUT = 10.0          # seconds: a request not answered by then is a hang, and fails the test
OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never a proxy
BASE_SCENE = json.loads((ROOT / "examples" / "checkout.scene.json").read_text())
TOUCHES = [
    {"format": "taptrace/touches@1", "gestures": [{"tap": [100, 332], "t": 0, "duration": 0.08}]},
    {"format": "taptrace/touches@1", "gestures": [{"tap": [250, 200], "t": 0}]},
    {"format": "taptrace/touches@1", "gestures": [{"doubleTap": [100, 332], "t": 0}]},
    {"format": "taptrace/touches@1", "gestures": [
        {"drag": {"from": [90, 330], "to": [90, 600]}, "duration": 0.3, "steps": 6, "t": 0}]},
]


def log(message):
    print(f"test_instances: {message}", flush=True)


def scene_document(tag, number):
    """The checkout scene with its button renamed after `tag` (so every version's result is its
    own) and moved with `number` (so a tap at the button's old place hits the card instead)."""
    document = copy.deepcopy(BASE_SCENE)
    document["name"] = f"instances {tag}"

    def walk(view):
        if view.get("id") == "buyButton":
            view["id"] = f"buy_{tag}"
            view["frame"] = [24 + (number % 3) * 100, 190, 120, 44]
            return True
        return any(walk(child) for child in view.get("subviews", []))
    assert any(walk(window) for window in document["windows"])
    return document


def key(value):
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ----------------------------------------------------------------------------------------------
# Checks and what every request answered


class Checks:
    """Named checks; a check passes when nothing failed it. Thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.failures = collections.OrderedDict()
        self.names = []
        self.notes = []

    def expect(self, name):
        with self.lock:
            if name not in self.names:
                self.names.append(name)

    def fail(self, name, message):
        with self.lock:
            if name not in self.names:
                self.names.append(name)
            self.failures.setdefault(name, []).append(message)
            count = len(self.failures[name])
        if count <= 5:
            print(f"test_instances: FAIL {name}: {message}", file=sys.stderr, flush=True)

    def note(self, message):
        with self.lock:
            self.notes.append(message)
        log(message)

    def failed(self, name=None):
        with self.lock:
            return bool(self.failures.get(name)) if name else bool(self.failures)

    def report(self):
        for name in self.names:
            messages = self.failures.get(name, [])
            if not messages:
                continue
            print(f"test_instances: {name}: {len(messages)} failure(s)", file=sys.stderr)
            for message in messages[:20]:
                print(f"  - {message}", file=sys.stderr)
            if len(messages) > 20:
                print(f"  … and {len(messages) - 20} more", file=sys.stderr)
        passed = sum(1 for name in self.names if not self.failures.get(name))
        failed = len(self.names) - passed
        print(f"test_instances: {passed} passed, {failed} failed")
        return 1 if failed else 0


CHECKS = Checks()


class NoAnswer(Exception):
    """The request got no HTTP answer: a timeout (a hang) or a broken connection."""


class Answer:
    def __init__(self, status, headers, body, elapsed, sent):
        self.status, self.headers, self.body, self.elapsed, self.sent = status, headers, body, elapsed, sent
        self._json = None

    @property
    def json(self):
        if self._json is None:
            self._json = json.loads(self.body) if self.body[:1] in (b"{", b"[") else {}
        return self._json

    @property
    def content_type(self):
        return (self.headers.get("Content-Type") or "").split(";")[0].strip()

    def text(self, limit=300):
        return self.body[:limit].decode("utf-8", "replace")


class Phase:
    """What the current part of the test lets an answer be."""
    name = "start"
    allow_503 = False


STATS = collections.Counter()
STATS_LOCK = threading.Lock()


class Instance:
    """One `taptrace serve` process; restartable."""

    def __init__(self, name, binary, database, workdir):
        self.name, self.binary, self.database, self.workdir = name, binary, database, workdir
        self.process = None
        self.base = None
        self.generation = 0
        self.stdout_path = self.stderr_path = None
        self.logs = []

    def start(self):
        self.generation += 1
        stem = self.workdir / f"{self.name}-{self.generation}"
        self.stdout_path, self.stderr_path = stem.with_suffix(".stdout"), stem.with_suffix(".stderr")
        self.logs.append(self.stderr_path)
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAPTRACE_")}
        with open(self.stdout_path, "wb") as out, open(self.stderr_path, "wb") as err:
            self.process = subprocess.Popen(
                [self.binary, "serve", "--db", self.database, "--port", "0"],
                stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        self.base = None

    def wait_ready(self, seconds=30):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            match = re.search(r"http://127\.0\.0\.1:(\d+)", self.stdout_path.read_text(errors="replace"))
            if match:
                self.base = f"http://127.0.0.1:{match.group(1)}"
                return
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"{self.name}: taptrace serve did not start (exit {self.process.poll()}):\n"
                           + self.stderr_path.read_text(errors="replace")[-3000:])

    def kill9(self):
        self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process is None or self.process.poll() is not None:
            return self.process.returncode if self.process else None
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            return "killed after 20 s"

    def call(self, method, path, body=None, headers=None, op=None, timeout=TIMEOUT,
             content_type="application/json"):
        """One request. Returns its Answer; raises NoAnswer. A 5xx that the current phase does
        not allow (every one but 503 problem+json while the database is down) fails `no-5xx`."""
        op = op or method + " " + re.sub(r"(scn|run)_[a-z0-9]+", r"\1_…", path.split("?")[0])
        data = None if body is None else (body if isinstance(body, bytes) else json.dumps(body).encode())
        request = urllib.request.Request(self.base + path, data=data, method=method, headers=dict(headers or {}))
        if data is not None:
            request.add_header("Content-Type", content_type)
        sent = time.monotonic()
        try:
            try:
                with OPENER.open(request, timeout=timeout) as response:
                    status, response_headers, payload = response.status, response.headers, response.read()
            except urllib.error.HTTPError as error:
                status, response_headers, payload = error.code, error.headers, error.read()
        except Exception as error:  # timeouts, resets, refused connections
            elapsed = time.monotonic() - sent
            with STATS_LOCK:
                STATS[(Phase.name, self.name, op, "no answer")] += 1
            raise NoAnswer(f"{method} {path} on {self.name}: no answer after {elapsed:.1f} s "
                           f"({type(error).__name__}: {error})") from None
        answer = Answer(status, response_headers, payload, time.monotonic() - sent, sent)
        with STATS_LOCK:
            STATS[(Phase.name, self.name, op, status)] += 1
        if status >= 500:
            if not (status == 503 and Phase.allow_503):
                CHECKS.fail("no-5xx", f"[{Phase.name}] {method} {path} on {self.name}: {status} "
                                      f"{answer.text()}")
            elif answer.content_type != "application/problem+json":
                CHECKS.fail("outage-503-problem", f"{method} {path} on {self.name}: 503 with "
                                                  f"Content-Type {answer.content_type!r}")
        return answer


# ----------------------------------------------------------------------------------------------
# What the clients were told


class Ledger:
    """Everything acknowledged to the clients, with when. Thread-safe."""

    def __init__(self):
        self.lock = threading.Lock()
        self.runs = {}                                  # run id -> (scene, version, touches, ack body or None, instance)
        self.uncertain_runs = set()                     # (scene id) of requests without an answer
        self.versions = collections.defaultdict(dict)   # scene -> version -> contentHash (201/200 answers)
        self.version_acks = collections.defaultdict(list)  # scene -> [(monotonic ack time, version)]
        self.uncertain_versions = collections.Counter()  # scene -> PUTs without an answer
        self.deleted = {}                               # scene -> [its acknowledged run ids]
        self.deleting = set()                           # scenes a DELETE was sent for
        self.stable = []                                # scenes never deleted
        self.created_at = {}                            # scene -> monotonic time of its 201
        self.races = []                                 # [(scene, base version, [(instance, status, version)])]

    def scene_created(self, scene, content_hash, stable=True):
        with self.lock:
            self.versions[scene][1] = content_hash
            self.version_acks[scene].append((time.monotonic(), 1))
            self.created_at[scene] = time.monotonic()
            if stable:
                self.stable.append(scene)

    def version_stored(self, scene, version, content_hash, where):
        with self.lock:
            known = self.versions[scene].get(version)
            if known is not None:
                CHECKS.fail("versions", f"{scene}: version {version} acknowledged twice "
                                        f"({known} and {content_hash}, the second by {where})")
            self.versions[scene][version] = content_hash
            self.version_acks[scene].append((time.monotonic(), version))

    def acknowledged_before(self, scene, moment):
        """The newest version of `scene` acknowledged before `moment` (0 when none)."""
        with self.lock:
            return max((v for t, v in self.version_acks[scene] if t < moment), default=0)

    def latest(self, scene):
        with self.lock:
            return max(self.versions[scene], default=1)

    def run_stored(self, run_id, scene, version, touches, body, where):
        with self.lock:
            if run_id in self.runs:
                CHECKS.fail("runs", f"run id {run_id} acknowledged twice (by {where})")
            self.runs[run_id] = (scene, version, touches, body, where)


# ----------------------------------------------------------------------------------------------
# Part a: two instances under concurrent load


def create_scene(instance, ledger, tag, stable=True):
    answer = instance.call("POST", "/v1/scenes", scene_document(tag, 1))
    if answer.status != 201:
        raise AssertionError(f"POST /v1/scenes on {instance.name}: {answer.status} {answer.text()}")
    ledger.scene_created(answer.json["id"], answer.json["contentHash"], stable)
    if answer.headers.get("ETag") != '"1"':
        CHECKS.fail("etag", f"POST /v1/scenes answered ETag {answer.headers.get('ETag')!r}, not \"1\"")
    return answer.json["id"]


def stored_dispatch(instance, ledger, scene, version=None, label=None, check="dispatch-version"):
    touches = random.choice(TOUCHES)
    body = {"touches": touches}
    if version is not None:
        body["version"] = version
    if label:
        body["label"] = label
    sent = time.monotonic()
    floor = ledger.acknowledged_before(scene, sent)
    answer = instance.call("POST", f"/v1/scenes/{scene}/dispatch", body)
    if answer.status == 201:
        run = answer.json
        reported = run.get("sceneVersion")
        if not isinstance(reported, int):
            CHECKS.fail(check, f"dispatch to {scene} on {instance.name} reports no sceneVersion: {answer.text()}")
        elif version is not None and reported != version:
            CHECKS.fail(check, f"dispatch to {scene} version {version} on {instance.name} reports version {reported}")
        elif version is None and reported < floor:
            CHECKS.fail("stale-latest", f"dispatch to {scene} on {instance.name} ran against version {reported}, "
                                        f"but version {floor} had been acknowledged before it was sent")
        ledger.run_stored(run["id"], scene, reported, touches, run, instance.name)
    return answer


def put_version(instance, ledger, scene, tag, if_match=None, number=None):
    """PUT a new version; records an acknowledged one. Returns the answer."""
    sent = time.monotonic()
    floor = ledger.acknowledged_before(scene, sent)
    headers = {} if if_match is None else {"If-Match": f'"{if_match}"'}
    number = number if number is not None else (if_match or floor) + 1
    answer = instance.call("PUT", f"/v1/scenes/{scene}", scene_document(tag, number), headers=headers)
    if answer.status == 200:
        version = answer.json.get("version")
        if if_match is not None and version != if_match + 1:
            CHECKS.fail("versions", f"PUT {scene} If-Match \"{if_match}\" on {instance.name} stored version {version}")
        if version is None or version <= floor:
            CHECKS.fail("stale-latest", f"PUT {scene} on {instance.name} stored version {version}, but version "
                                        f"{floor} had been acknowledged before it was sent")
        if answer.headers.get("ETag") != f'"{version}"':
            CHECKS.fail("etag", f"PUT {scene} answered version {version} with ETag {answer.headers.get('ETag')!r}")
        ledger.version_stored(scene, version, answer.json.get("contentHash"), instance.name)
    elif answer.status not in (409, 412) or if_match is None:
        CHECKS.fail("versions", f"PUT {scene} (If-Match {if_match}) on {instance.name}: {answer.status} {answer.text()}")
    return answer


def read_latest(instance, ledger, scene):
    """GET the scene; checks its ETag and that it is not older than an acknowledged version."""
    sent = time.monotonic()
    floor = ledger.acknowledged_before(scene, sent)
    answer = instance.call("GET", f"/v1/scenes/{scene}")
    if answer.status != 200:
        CHECKS.fail("reads", f"GET /v1/scenes/{scene} on {instance.name}: {answer.status} {answer.text()}")
        return None
    version = answer.json.get("version")
    if answer.headers.get("ETag") != f'"{version}"':
        CHECKS.fail("etag", f"GET {scene} on {instance.name}: version {version} with ETag {answer.headers.get('ETag')!r}")
    if version < floor:
        CHECKS.fail("stale-latest", f"GET {scene} on {instance.name} answered version {version}, but version {floor} "
                                    f"had been acknowledged before it was sent")
    return version


def delete_round(mine, other, ledger, tag):
    """A scene created on one instance, used (and so cached) on the other, deleted on either,
    is gone from both: the scene, its runs, a dispatch to it, a new version of it."""
    scene = create_scene(mine, ledger, tag, stable=False)
    runs = []
    for instance in (other, mine):
        answer = stored_dispatch(instance, ledger, scene)
        if answer.status == 201:
            runs.append(answer.json["id"])
        else:
            CHECKS.fail("delete", f"dispatch to fresh scene {scene} on {instance.name}: {answer.status} {answer.text()}")
    read_latest(other, ledger, scene)
    other.call("POST", f"/v1/scenes/{scene}/hit-test", {"point": [100, 332]})
    deleter = random.choice((mine, other))
    with ledger.lock:
        ledger.deleting.add(scene)
    answer = deleter.call("DELETE", f"/v1/scenes/{scene}")
    if answer.status != 204:
        CHECKS.fail("delete", f"DELETE {scene} on {deleter.name}: {answer.status} {answer.text()}")
        return
    with ledger.lock:
        ledger.deleted[scene] = runs
    for instance in (other, mine) if deleter is mine else (mine, other):
        probes = [("GET", f"/v1/scenes/{scene}", None, None),
                  ("POST", f"/v1/scenes/{scene}/dispatch", {"touches": TOUCHES[0]}, None),
                  ("POST", f"/v1/scenes/{scene}/hit-test", {"point": [100, 332]}, None),
                  ("GET", f"/v1/scenes/{scene}/runs", None, None),
                  ("GET", f"/v1/scenes/{scene}/versions", None, None),
                  ("PUT", f"/v1/scenes/{scene}", scene_document(tag, 2), {"If-Match": '"1"'})]
        probes += [("GET", f"/v1/runs/{run}", None, None) for run in runs]
        for method, path, body, headers in probes:
            answer = instance.call(method, path, body, headers=headers)
            if answer.status != 404:
                CHECKS.fail("delete", f"{method} {path} on {instance.name} after {scene} was deleted on "
                                      f"{deleter.name}: {answer.status} {answer.text(200)}")


class Writers:
    """16 writer threads, writer i on instance i % 2; writers 2k and 2k+1 (on different
    instances) share a race scene on which they PUT with the same If-Match at once."""

    def __init__(self, instances, ledger, shared, seconds):
        self.instances, self.ledger, self.shared = instances, ledger, shared
        self.deadline = time.monotonic() + seconds
        self.pairs = {}
        self.counts = collections.Counter()
        self.lock = threading.Lock()

    def setup(self, count):
        for pair in range(count // 2):
            scene = create_scene(self.instances[0], self.ledger, f"race{pair}")
            self.pairs[pair] = {"scene": scene, "barrier": threading.Barrier(2, timeout=TIMEOUT * 2),
                                "results": collections.defaultdict(list)}
        self.private = {i: create_scene(self.instances[i % 2], self.ledger, f"own{i}") for i in range(count)}

    def race(self, writer, me, round_number):
        """Both writers of a pair: wait, read the latest version on their own instance, wait,
        PUT with If-Match of what they read. Exactly one of the two may win."""
        pair = self.pairs[writer // 2]
        scene = pair["scene"]
        pair["barrier"].wait()
        read = read_latest(me, self.ledger, scene)
        pair["barrier"].wait()
        if read is None:
            return
        answer = put_version(me, self.ledger, scene, f"race{writer // 2}_r{round_number}_w{writer}", if_match=read)
        with self.lock:
            pair["results"][round_number].append((me.name, read, answer.status, answer.json.get("version")))
        self.counts["race"] += 1

    def run(self, writer):
        me = self.instances[writer % 2]
        other = self.instances[1 - writer % 2]
        rng = random.Random(writer)
        iteration = 0
        try:
            while time.monotonic() < self.deadline:
                iteration += 1
                if iteration % 6 == 0:
                    self.race(writer, me, iteration // 6)
                    continue
                roll = rng.random()
                racing = [p["scene"] for p in self.pairs.values()]
                if roll < 0.45:
                    scene = rng.choice(self.shared + racing + [self.private[writer]])
                    version = None
                    if rng.random() < 0.3:
                        version = rng.randint(1, self.ledger.latest(scene))
                    answer = stored_dispatch(me, self.ledger, scene, version, label=f"w{writer}")
                    if answer.status == 409 and version is None:
                        self.counts["dispatch-409"] += 1  # the scene kept getting new versions (openapi.yaml)
                    elif answer.status != 201:
                        CHECKS.fail("dispatch-version", f"dispatch to {scene} on {me.name}: {answer.status} {answer.text()}")
                    self.counts["dispatch"] += 1
                elif roll < 0.65:
                    scene = rng.choice(self.shared + [self.private[writer]])
                    read = read_latest(me, self.ledger, scene)
                    if read is not None:
                        put_version(me, self.ledger, scene, f"w{writer}_i{iteration}", if_match=read)
                    self.counts["put-if-match"] += 1
                elif roll < 0.77:
                    scene = rng.choice(self.shared)
                    put_version(me, self.ledger, scene, f"w{writer}_i{iteration}", number=iteration)
                    self.counts["put"] += 1
                elif roll < 0.85:
                    scene = rng.choice(self.shared + racing + [self.private[writer]])
                    latest = self.ledger.latest(scene)
                    source = rng.randint(max(1, latest - 2), latest)
                    answer = me.call("POST", f"/v1/scenes/{scene}/replay", {"from": source, "to": latest})
                    if answer.status == 200:
                        for item in answer.json.get("runs", []):
                            self.ledger.run_stored(item["replayed"], scene, latest, None, None, me.name)
                    else:
                        CHECKS.fail("replay", f"replay {source}→{latest} of {scene} on {me.name}: "
                                              f"{answer.status} {answer.text()}")
                    self.counts["replay"] += 1
                elif roll < 0.93:
                    delete_round(me, other, self.ledger, f"del_w{writer}_i{iteration}")
                    self.counts["delete"] += 1
                else:
                    # Another instance's cached copy of the scene must not hide a newer version.
                    scene = rng.choice(self.shared + racing)
                    read_latest(other, self.ledger, scene)
                    other.call("POST", f"/v1/scenes/{scene}/hit-test", {"point": [100, 332]})
                    self.counts["read"] += 1
        except NoAnswer as error:
            CHECKS.fail("no-hang", f"writer {writer}: {error}")
        except threading.BrokenBarrierError:
            pass
        except Exception:
            CHECKS.fail("writers", f"writer {writer}: {traceback.format_exc()}")
        finally:
            self.pairs[writer // 2]["barrier"].abort()


class Readers:
    """8 reader threads on both instances: scene lists and run histories, page by page, and
    runs just acknowledged by the other instance."""

    def __init__(self, instances, ledger, seconds):
        self.instances, self.ledger = instances, ledger
        self.deadline = time.monotonic() + seconds
        self.counts = collections.Counter()

    def walk(self, instance, path, limit, max_pages):
        """Pages through a list; returns (ids in order, complete?) and checks no id repeats."""
        seen, cursor = [], None
        for _ in range(max_pages):
            query = f"?limit={limit}" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else "")
            answer = instance.call("GET", path + query)
            if answer.status != 200:
                return seen, None, answer
            page = answer.json
            seen.extend(item["id"] for item in page["items"])
            cursor = page.get("nextCursor")
            if not cursor:
                break
        if len(seen) != len(set(seen)):
            repeated = [i for i, c in collections.Counter(seen).items() if c > 1]
            CHECKS.fail("pagination", f"GET {path}?limit={limit} on {instance.name}: ids on two pages: {repeated[:5]}")
        return seen, not cursor, None

    def run(self, reader):
        me = self.instances[reader % 2]
        rng = random.Random(100 + reader)
        try:
            while time.monotonic() < self.deadline:
                roll = rng.random()
                with self.ledger.lock:
                    stable = list(self.ledger.stable)
                    known_runs = list(self.ledger.runs.items())[-200:]
                if roll < 0.35:
                    before = time.monotonic()
                    with self.ledger.lock:
                        expected = [s for s in stable if self.ledger.created_at[s] < before]
                    seen, complete, failed = self.walk(me, "/v1/scenes", rng.randint(3, 25), 60)
                    if failed is not None:
                        CHECKS.fail("reads", f"GET /v1/scenes on {me.name}: {failed.status} {failed.text()}")
                    elif complete:
                        missing = set(expected) - set(seen)
                        if missing:
                            CHECKS.fail("pagination", f"GET /v1/scenes pages on {me.name} miss scenes created "
                                                      f"before the first page: {sorted(missing)[:5]}")
                    self.counts["scene-pages"] += 1
                elif roll < 0.7:
                    scene = rng.choice(stable)
                    before = time.monotonic()
                    with self.ledger.lock:
                        expected = {r for r, (s, *_rest) in self.ledger.runs.items() if s == scene}
                    path = f"/v1/scenes/{scene}/runs"
                    seen, complete, failed = self.walk(me, path, rng.randint(5, 60), 25)
                    if failed is not None:
                        CHECKS.fail("reads", f"GET {path} on {me.name}: {failed.status} {failed.text()}")
                    elif complete and expected - set(seen):
                        CHECKS.fail("pagination", f"GET {path} pages on {me.name} miss runs acknowledged "
                                                  f"before the first page: {sorted(expected - set(seen))[:5]}")
                    self.counts["run-pages"] += 1
                elif known_runs:
                    run_id, (scene, version, touches, body, where) = rng.choice(known_runs)
                    answer = me.call("GET", f"/v1/runs/{run_id}")
                    with self.ledger.lock:
                        gone = scene in self.ledger.deleting
                    if answer.status == 200:
                        if body is not None and answer.json != body:
                            CHECKS.fail("runs", f"GET /v1/runs/{run_id} on {me.name} differs from the answer "
                                                f"that {where} acknowledged it with")
                    elif not (answer.status == 404 and gone):
                        CHECKS.fail("runs", f"GET /v1/runs/{run_id} on {me.name} (acknowledged by {where}): "
                                            f"{answer.status} {answer.text()}")
                    self.counts["run-reads"] += 1
        except NoAnswer as error:
            CHECKS.fail("no-hang", f"reader {reader}: {error}")
        except Exception:
            CHECKS.fail("readers", f"reader {reader}: {traceback.format_exc()}")


def list_all(instance, path):
    """Every item of a paginated list (None when the list is not 200)."""
    items, cursor = [], None
    while True:
        answer = instance.call("GET", path + "?limit=1000" + (f"&cursor={urllib.parse.quote(cursor)}" if cursor else ""))
        if answer.status != 200:
            return None
        items.extend(answer.json["items"])
        cursor = answer.json.get("nextCursor")
        if not cursor:
            return items


def verify_versions(instances, ledger, check, scenes=None, uncertain=None):
    """Each scene's versions: 1..N on every instance, the same list on each, N = 1 + the
    acknowledged new versions (at most that plus the PUTs that got no answer), and every
    acknowledged version holds the document it was acknowledged with."""
    with ledger.lock:
        scenes = list(scenes if scenes is not None else ledger.stable)
        versions = {s: dict(ledger.versions[s]) for s in scenes}
    for scene in scenes:
        lists = {}
        for instance in instances:
            answer = instance.call("GET", f"/v1/scenes/{scene}/versions")
            if answer.status != 200:
                CHECKS.fail(check, f"GET /v1/scenes/{scene}/versions on {instance.name}: {answer.status} {answer.text()}")
                continue
            lists[instance.name] = [(v["version"], v["contentHash"]) for v in answer.json["items"]]
        if len({key(v) for v in lists.values()}) > 1:
            CHECKS.fail(check, f"{scene}: the instances list different versions: "
                               + "; ".join(f"{n}: {[v for v, _ in l]}" for n, l in lists.items()))
        for name, listed in lists.items():
            numbers = sorted(v for v, _ in listed)
            if numbers != list(range(1, len(numbers) + 1)):
                gaps = sorted(set(range(1, max(numbers, default=0) + 1)) - set(numbers))
                CHECKS.fail(check, f"{scene} on {name}: versions are not 1..N: missing {gaps[:10]}, "
                                   f"{len(numbers)} listed")
            acknowledged = versions[scene]
            extra = (uncertain or {}).get(scene, 0)
            if not len(acknowledged) <= len(numbers) <= len(acknowledged) + extra:
                CHECKS.fail(check, f"{scene} on {name}: {len(numbers)} versions stored, {len(acknowledged)} acknowledged"
                                   + (f" (+{extra} unanswered)" if extra else "")
                                   + f": missing {sorted(set(acknowledged) - set(numbers))[:10]}, "
                                     f"not acknowledged {sorted(set(numbers) - set(acknowledged))[:10]}")
            stored = dict(listed)
            for version, content_hash in acknowledged.items():
                if version in stored and stored[version] != content_hash:
                    CHECKS.fail(check, f"{scene} version {version} on {name} holds {stored[version][:12]}…, "
                                       f"not the document acknowledged ({content_hash[:12]}…)")


def verify_runs(instances, ledger, check, run_ids, pool):
    """Every acknowledged run reads the same from every instance, and as it was acknowledged.
    Returns {run id: run} as read."""
    with ledger.lock:
        entries = {r: ledger.runs[r] for r in run_ids}

    def one(run_id):
        scene, version, touches, body, where = entries[run_id]
        read = {}
        for instance in instances:
            answer = instance.call("GET", f"/v1/runs/{run_id}")
            if answer.status != 200:
                CHECKS.fail(check, f"run {run_id} (acknowledged by {where}) on {instance.name}: "
                                   f"{answer.status} {answer.text(200)}")
                return run_id, None
            read[instance.name] = answer.json
        first = next(iter(read.values()))
        if any(r != first for r in read.values()):
            CHECKS.fail(check, f"run {run_id} reads differently from {', '.join(read)}")
        if body is not None and first != body:
            CHECKS.fail(check, f"run {run_id} reads differently from the answer {where} acknowledged it with")
        if first.get("sceneId") != scene or first.get("sceneVersion") != version:
            CHECKS.fail(check, f"run {run_id}: scene {first.get('sceneId')} version {first.get('sceneVersion')}, "
                               f"acknowledged as {scene} version {version}")
        return run_id, first

    return dict(pool.map(one, entries))


def verify_histories(instances, ledger, check, scenes, uncertain=frozenset()):
    """Each scene's history lists exactly the runs acknowledged for it (plus, at most, runs of
    requests that got no answer: `uncertain` scenes)."""
    with ledger.lock:
        expected = collections.defaultdict(set)
        for run_id, (scene, *_rest) in ledger.runs.items():
            expected[scene].add(run_id)
    unacknowledged = 0
    for scene in scenes:
        for instance in instances:
            items = list_all(instance, f"/v1/scenes/{scene}/runs")
            if items is None:
                CHECKS.fail(check, f"GET /v1/scenes/{scene}/runs on {instance.name} failed")
                continue
            listed = {item["id"] for item in items}
            lost = expected[scene] - listed
            extra = listed - expected[scene]
            if lost:
                CHECKS.fail(check, f"{scene} on {instance.name}: {len(lost)} acknowledged runs not in its history: "
                                   f"{sorted(lost)[:5]}")
            if extra and scene not in uncertain:
                CHECKS.fail(check, f"{scene} on {instance.name}: {len(extra)} runs in its history that no answer "
                                   f"acknowledged: {sorted(extra)[:5]}")
            unacknowledged = max(unacknowledged, len(extra))
    return unacknowledged


def verify_results(instance, ledger, runs_read, pool):
    """Each run's result equals a stateless dispatch of its touches against the document of the
    version it reports: a run always ran against the version it names."""
    documents = {}
    groups = collections.defaultdict(list)
    for run_id, run in runs_read.items():
        if run is None:
            continue
        groups[(run["sceneId"], run["sceneVersion"], key(run["request"]["touches"]))].append(run)
    for scene, version in {(s, v) for s, v, _ in groups}:
        answer = instance.call("GET", f"/v1/scenes/{scene}?version={version}")
        if answer.status != 200:
            CHECKS.fail("dispatch-version", f"GET {scene}?version={version}: {answer.status} {answer.text()}")
            continue
        documents[(scene, version)] = answer.json["scene"]

    def one(group):
        (scene, version, touches), runs = group
        if (scene, version) not in documents:
            return
        answer = instance.call("POST", "/v1/dispatch", {"scene": documents[(scene, version)],
                                                        "touches": json.loads(touches)})
        if answer.status != 200:
            CHECKS.fail("dispatch-version", f"stateless dispatch of {scene} version {version}: {answer.status} "
                                            f"{answer.text()}")
            return
        for run in runs:
            if run["result"] != answer.json:
                hit = [t.get("hitTestView") for t in run["result"].get("touches", [])]
                want = [t.get("hitTestView") for t in answer.json.get("touches", [])]
                CHECKS.fail("dispatch-version", f"run {run['id']} reports {scene} version {version} but its result is "
                                                f"not that version's (hit-test views {hit}, the version gives {want})")
    list(pool.map(one, groups.items()))
    return len(groups)


def part_a(instances, ledger, seconds, pool):
    Phase.name = "a"
    for name in ["no-5xx", "no-hang", "writers", "readers", "versions", "races", "runs", "dispatch-version",
                 "stale-latest", "replay", "delete", "pagination", "reads", "etag"]:
        CHECKS.expect(name)
    shared = [create_scene(instances[i % 2], ledger, f"shared{i}") for i in range(4)]
    writers = Writers(instances, ledger, shared, seconds)
    writers.setup(16)
    readers = Readers(instances, ledger, seconds)
    started = time.monotonic()
    threads = [threading.Thread(target=writers.run, args=(i,), name=f"writer{i}") for i in range(16)]
    threads += [threading.Thread(target=readers.run, args=(i,), name=f"reader{i}") for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(seconds + 4 * TIMEOUT)
        if thread.is_alive():
            CHECKS.fail("no-hang", f"{thread.name} still running {seconds + 4 * TIMEOUT:.0f} s after the load began")
    load = time.monotonic() - started
    log(f"a: load {load:.1f} s: writers {dict(writers.counts)}, readers {dict(readers.counts)}")

    # Racing If-Match writes: exactly one of each pair won, the other got 409 (412 accepted).
    rounds = 0
    for pair_number, pair in writers.pairs.items():
        for round_number, results in pair["results"].items():
            if len(results) != 2:
                continue  # one side stopped at the deadline
            rounds += 1
            statuses = sorted(status for _, _, status, _ in results)
            reads = {read for _, read, _, _ in results}
            if len(reads) == 1 and statuses not in ([200, 409], [200, 412]):
                CHECKS.fail("races", f"{pair['scene']} round {round_number}: two PUTs with If-Match \"{reads.pop()}\" "
                                     f"on two instances answered {results}")
    if rounds == 0:
        CHECKS.fail("races", "no race round completed")
    log(f"a: {rounds} If-Match races between the instances")

    started = time.monotonic()
    verify_versions(instances, ledger, "versions")
    with ledger.lock:
        stable = list(ledger.stable)
        deleted = dict(ledger.deleted)
        live_runs = [r for r, (s, *_rest) in ledger.runs.items() if s not in deleted]
    verify_histories(instances, ledger, "runs", stable)
    runs_read = verify_runs(instances, ledger, "runs", live_runs, pool)
    groups = verify_results(instances[0], ledger, runs_read, pool)
    for scene, runs in deleted.items():
        for instance in instances:
            for path in [f"/v1/scenes/{scene}", f"/v1/scenes/{scene}/runs"] + [f"/v1/runs/{r}" for r in runs]:
                answer = instance.call("GET", path)
                if answer.status != 404:
                    CHECKS.fail("delete", f"GET {path} on {instance.name} after the load: {answer.status}")
    log(f"a: checked {len(stable)} scenes, {len(live_runs)} acknowledged runs on both instances, "
        f"{groups} (scene, version, touches) results against stateless dispatch, {len(deleted)} deleted scenes "
        f"in {time.monotonic() - started:.1f} s")


# ----------------------------------------------------------------------------------------------
# Part b: kill -9 during stored writes


def part_b(instances, ledger, pool):
    Phase.name = "b"
    CHECKS.expect("kill9")
    victim, survivor = instances
    scenes = [create_scene(victim, ledger, f"kill{i}") for i in range(3)]
    before = set(ledger.runs)
    stop = threading.Event()
    killed = threading.Event()
    unanswered = collections.Counter()
    unanswered_puts = collections.Counter()
    counts = collections.Counter()
    lock = threading.Lock()

    def writer(number, instance):
        rng = random.Random(1000 + number)
        scene = scenes[number % len(scenes)]
        while not stop.is_set():
            if instance is victim and killed.is_set():
                return
            put = rng.random() < 0.25
            try:
                if put:
                    answer = put_version(instance, ledger, scene, f"kill_w{number}_{counts['put']}",
                                         number=rng.randint(0, 2))
                else:
                    answer = stored_dispatch(instance, ledger, scene, label=f"kill{number}")
                    if answer.status == 409:
                        with lock:
                            counts["dispatch-409"] += 1  # the scene kept getting new versions
                    elif answer.status != 201:
                        CHECKS.fail("kill9", f"dispatch to {scene} on {instance.name}: {answer.status} {answer.text()}")
                with lock:
                    counts["put" if put else "dispatch"] += 1
            except NoAnswer as error:
                if instance is victim and killed.is_set() or instance is victim and victim.process.poll() is not None:
                    with lock:
                        (unanswered_puts if put else unanswered)[scene] += 1
                    return
                CHECKS.fail("kill9", f"{error}")
                return

    threads = [threading.Thread(target=writer, args=(i, victim if i < 6 else survivor)) for i in range(8)]
    for thread in threads:
        thread.start()
    time.sleep(3)
    killed.set()
    victim.kill9()
    time.sleep(2)
    stop.set()
    for thread in threads:
        thread.join(2 * TIMEOUT)
    acknowledged = sorted(set(ledger.runs) - before)
    log(f"b: kill -9 of {victim.name} after 3 s of stored writes: {dict(counts)} answered, "
        f"{sum(unanswered.values())} dispatches and {sum(unanswered_puts.values())} PUTs cut off")
    if not acknowledged:
        CHECKS.fail("kill9", "no run was acknowledged before the kill")
    verify_runs([survivor], ledger, "kill9", acknowledged, pool)
    verify_versions([survivor], ledger, "kill9", scenes, dict(unanswered_puts))
    extra = verify_histories([survivor], ledger, "kill9", scenes, uncertain=set(unanswered))
    if extra:
        log(f"b: {extra} runs stored whose answer the kill cut off")
    restarted = time.monotonic()
    victim.start()
    victim.wait_ready()
    log(f"b: {victim.name} restarted ({time.monotonic() - restarted:.1f} s to listen)")
    answer = victim.call("GET", "/health")
    if answer.status != 200:
        CHECKS.fail("kill9", f"GET /health on the restarted {victim.name}: {answer.status} {answer.text()}")
    with ledger.lock:
        earlier = [r for r, (s, *_rest) in ledger.runs.items() if s not in ledger.deleted and r in before]
    # The runs of part a were read from both instances already: a sample of them, and all of b's.
    sample = acknowledged + random.sample(earlier, min(300, len(earlier)))
    verify_runs(instances, ledger, "kill9", sample, pool)
    verify_versions(instances, ledger, "kill9", scenes, dict(unanswered_puts))
    log(f"b: the {len(acknowledged)} runs acknowledged around the kill (and {len(sample) - len(acknowledged)} "
        f"earlier ones) read the same from {survivor.name} and the restarted {victim.name}")


# ----------------------------------------------------------------------------------------------
# Part c: the database stopped and started again under load


def run_command(command, what):
    """Runs a pause or resume command; its output goes to a file, not a pipe, which a server
    that it starts could keep open."""
    started = time.monotonic()
    with tempfile.TemporaryFile() as output:
        result = subprocess.run(command, shell=True, cwd=ROOT, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT, timeout=120)
        output.seek(0)
        text = output.read().decode(errors="replace")
    if result.returncode != 0:
        raise RuntimeError(f"{what} command {command!r} failed ({result.returncode}): {text[-2000:]}")
    return started, time.monotonic()


def part_c(instances, ledger, pool, pause_command, resume_command, state):
    Phase.name = "c"
    for name in ["outage-503", "outage-503-problem", "outage-health", "outage-recovery"]:
        CHECKS.expect(name)
    scenes = [create_scene(instances[i % 2], ledger, f"outage{i}") for i in range(4)]
    before = set(ledger.runs)
    events = []                     # (instance, op, sent, answered, status, content type)
    events_lock = threading.Lock()
    stop = threading.Event()
    Phase.allow_503 = True

    def record(instance, op, answer):
        with events_lock:
            kind = answer.json.get("type", "").rsplit("/", 1)[-1] if answer.status >= 400 else ""
            events.append((instance.name, op, answer.sent, answer.sent + answer.elapsed, answer.status,
                           answer.content_type, answer.headers.get("Retry-After"), kind))

    def loader(number):
        instance = instances[number % 2]
        scene = scenes[number]
        rng = random.Random(2000 + number)
        while not stop.is_set():
            try:
                roll = rng.random()
                if roll < 0.5:
                    answer = stored_dispatch(instance, ledger, scene, label=f"outage{number}")
                    op = "stored-dispatch"
                    if answer.status == 503:
                        with events_lock:
                            state["answered_503"][scene] += 1
                elif roll < 0.65:
                    answer = instance.call("GET", f"/v1/scenes/{scene}")
                    op = "get-scene"
                elif roll < 0.8:
                    answer = instance.call("GET", f"/v1/scenes/{scene}/runs?limit=20")
                    op = "list-runs"
                elif roll < 0.9:
                    answer = instance.call("POST", "/v1/dispatch", {"scene": scene_document("x", 1), "touches": TOUCHES[0]})
                    op = "stateless"
                else:
                    answer = instance.call("GET", "/v1/scenes?limit=5")
                    op = "list-scenes"
                record(instance, op, answer)
                if answer.status not in (200, 201, 503):
                    CHECKS.fail("outage-503", f"{op} on {instance.name}: {answer.status} {answer.text()}")
            except NoAnswer as error:
                CHECKS.fail("no-hang", f"during the outage: {error}")
            time.sleep(0.02)

    def health(instance):
        while not stop.is_set():
            try:
                answer = instance.call("GET", "/health", timeout=TIMEOUT)
                record(instance, "health", answer)
            except NoAnswer as error:
                CHECKS.fail("no-hang", f"health during the outage: {error}")
            time.sleep(0.25)

    threads = [threading.Thread(target=loader, args=(i,)) for i in range(4)]
    threads += [threading.Thread(target=health, args=(instance,)) for instance in instances]
    for thread in threads:
        thread.start()
    time.sleep(2)
    state["paused"] = True
    pause_started, pause_done = run_command(pause_command, "pause")
    log(f"c: database paused ({pause_done - pause_started:.1f} s); load goes on for 6 s")
    time.sleep(6)
    resume_started, resume_done = run_command(resume_command, "resume")
    state["paused"] = False
    log(f"c: database resumed ({resume_done - resume_started:.1f} s)")
    deadline = resume_done + 10
    # The load goes on past the 10 s the instances have to serve again, to see that they do.
    time.sleep(max(0.0, deadline + 3 - time.monotonic()))
    stop.set()
    for thread in threads:
        thread.join(2 * TIMEOUT)
    Phase.allow_503 = False

    healthy = {}
    for name, op, sent, answered, status, *_ in sorted(events, key=lambda e: e[3]):
        if op == "health" and status == 200 and sent > resume_done and name not in healthy:
            healthy[name] = answered
    for instance in instances:
        if instance.name not in healthy or healthy[instance.name] > deadline:
            CHECKS.fail("outage-recovery", f"{instance.name}: /health not 200 within 10 s of the resume")
        stored_again = [e[3] for e in events if e[0] == instance.name and e[1] == "stored-dispatch"
                        and e[4] == 201 and e[2] > resume_done]
        if not stored_again or min(stored_again) > deadline:
            CHECKS.fail("outage-recovery", f"{instance.name}: no stored dispatch succeeded within 10 s of the resume")
        else:
            log(f"c: {instance.name}: stored dispatch 201 again {min(stored_again) - resume_done:.1f} s after the resume")
    down = [e for e in events if e[2] > pause_done + 1 and e[3] < resume_started]
    for name in [i.name for i in instances]:
        mine = [e for e in down if e[0] == name]
        health_down = [e for e in mine if e[1] == "health"]
        if not health_down:
            CHECKS.fail("outage-health", f"{name}: no /health answer while the database was down")
        for _, op, sent, answered, status, content_type, *_ in health_down:
            if status != 503 or content_type != "application/problem+json":
                CHECKS.fail("outage-health", f"{name}: GET /health {sent - pause_done:+.1f} s after the pause: "
                                             f"{status} {content_type}")
        stored = [e for e in mine if e[1] == "stored-dispatch"]
        if not stored:
            CHECKS.fail("outage-503", f"{name}: no stored dispatch answered while the database was down")
        for _, op, sent, answered, status, content_type, *_ in stored:
            if status != 503:
                CHECKS.fail("outage-503", f"{name}: stored dispatch sent {sent - pause_done:+.1f} s after the pause "
                                          f"answered {status} while the database was down")
    # 10 s after the resume, every request succeeds again; before, once /health is 200 again,
    # a failure is told (connections of the pool found broken one by one, say).
    late = collections.Counter()
    for name, op, sent, answered, status, content_type, *_ in events:
        if sent > deadline and status not in (200, 201):
            CHECKS.fail("outage-recovery", f"{name}: {op} sent {sent - resume_done:.1f} s after the resume: {status}")
        elif name in healthy and healthy[name] < sent <= deadline and status not in (200, 201):
            late[(name, op, status)] += 1
    if late:
        log(f"c: failures after /health was 200 again (within 10 s of the resume): {dict(late)}")
    slowest = max((e[3] - e[2] for e in events if e[2] > pause_started and e[3] < resume_done + 10), default=0)
    statuses = collections.Counter((e[1], e[4]) for e in down)
    retry_after = sum(1 for e in down if e[4] == 503 and e[1] != "health" and e[6])
    # openapi.yaml: a PostgreSQL that cannot be reached is `database-unreachable`.
    kinds = collections.Counter((e[1] if e[1] == "health" else "/v1", e[7]) for e in down if e[4] == 503)
    for (op, kind), count in kinds.items():
        if op == "/v1" and kind != "database-unreachable":
            CHECKS.fail("outage-503", f"{count} /v1 answers 503 of type {kind!r} while the database was down, "
                                      f"not database-unreachable")
    log(f"c: while down: {dict(sorted(statuses.items()))}; slowest answer around the outage {slowest:.2f} s; "
        f"{retry_after} of the /v1 503s had Retry-After; problem types {dict(kinds)}")
    for name, moment in healthy.items():
        log(f"c: {name}: /health 200 again {moment - resume_done:.1f} s after the resume")
    # A quick restart, no load: what the first request on each instance meets (told, not
    # judged: the instances have 10 s, and a first request may find a pooled connection broken).
    run_command(pause_command, "pause")
    state["paused"] = True
    _, resumed = run_command(resume_command, "resume")
    state["paused"] = False
    Phase.allow_503 = True
    firsts = []
    for number, instance in enumerate(instances):
        answer = stored_dispatch(instance, ledger, scenes[number], label="restart")
        firsts.append(f"{instance.name} {answer.status}")
        if answer.status == 503:
            with events_lock:
                state["answered_503"][scenes[number]] += 1
    recovered = {}
    while len(recovered) < len(instances) and time.monotonic() < resumed + 10:
        for number, instance in enumerate(instances):
            if instance.name in recovered:
                continue
            answer = stored_dispatch(instance, ledger, scenes[number])
            if answer.status == 201:
                recovered[instance.name] = time.monotonic() - resumed
            elif answer.status == 503:
                with events_lock:
                    state["answered_503"][scenes[number]] += 1
        time.sleep(0.1)
    Phase.allow_503 = False
    if len(recovered) < len(instances):
        CHECKS.fail("outage-recovery", f"after a quick restart of the database, no stored dispatch succeeded "
                                       f"within 10 s on {[i.name for i in instances if i.name not in recovered]}")
    log(f"c: a quick restart: the first stored dispatch answered {', '.join(firsts)}")

    acknowledged = sorted(set(ledger.runs) - before)
    verify_runs(instances, ledger, "outage-recovery", acknowledged, pool)
    extra = verify_histories(instances, ledger, "outage-recovery", scenes, uncertain=set(state["answered_503"]))
    log(f"c: {len(acknowledged)} runs acknowledged around the outage read the same from both instances; "
        f"{extra} runs stored whose answer was 503 (a commit cut off as the server stopped)")


# ----------------------------------------------------------------------------------------------


def find_psql():
    found = shutil.which("psql")
    if found:
        return found
    for candidate in sorted(pathlib.Path("/usr/lib/postgresql").glob("*/bin/psql"), reverse=True):
        return str(candidate)
    raise SystemExit("test_instances: psql not found (install postgresql-client)")


def psql(url, sql):
    result = subprocess.run([find_psql(), url, "-v", "ON_ERROR_STOP=1", "-qAtc", sql],
                            capture_output=True, text=True, timeout=60)
    if result.returncode != 0:
        raise RuntimeError(f"psql {sql!r}: {result.stderr.strip()}")
    return result.stdout


def scan_logs(instances):
    """The servers' request logs: no 5xx but 503 (a 503 is also how a request whose client
    hung up is logged), and no crash report."""
    for instance in instances:
        for path in instance.logs:
            for line in path.read_text(errors="replace").splitlines():
                if re.search(r" 5(?!03)\d\d [0-9.]+ms$", line):
                    CHECKS.fail("no-5xx", f"{path.name}: {line}")
                elif re.search(r"Fatal error|Segmentation fault|panic", line):
                    CHECKS.fail("no-5xx", f"{path.name}: {line}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--taptrace", required=True, help="the taptrace binary")
    parser.add_argument("--db", required=True, help="postgres://… (a database of the test's own is created "
                                                    "beside it) or `sqlite` (a temporary file)")
    parser.add_argument("--pause-cmd", help="stops the database, keeping its data (part c)")
    parser.add_argument("--resume-cmd", help="starts it again (part c)")
    parser.add_argument("--duration", type=float, default=18, help="seconds of load in part a (18)")
    parser.add_argument("--keep", action="store_true", help="keep the logs and the database")
    arguments = parser.parse_args()
    binary = str(pathlib.Path(arguments.taptrace).resolve())
    if not os.access(binary, os.X_OK):
        raise SystemExit(f"test_instances: {binary} is not an executable")
    if bool(arguments.pause_cmd) != bool(arguments.resume_cmd):
        raise SystemExit("test_instances: --pause-cmd and --resume-cmd go together")

    began = time.monotonic()
    workdir = pathlib.Path(tempfile.mkdtemp(prefix="taptrace-instances."))
    postgres = re.match(r"postgres(ql)?://", arguments.db) is not None
    database_name = admin_url = None
    if postgres:
        admin_url = arguments.db
        parts = urllib.parse.urlsplit(admin_url)
        database_name = f"taptrace_instances_{os.getpid()}_{int(time.time())}"
        psql(admin_url, f'CREATE DATABASE "{database_name}"')
        database = urllib.parse.urlunsplit(parts._replace(path="/" + database_name))
        log(f"database {database_name} created beside {parts.path.lstrip('/') or 'the default'}")
    elif arguments.db == "sqlite":
        database = str(workdir / "shared.sqlite")
    else:
        raise SystemExit("test_instances: --db is postgres://… or sqlite")

    instances = [Instance(name, binary, database, workdir) for name in ("A", "B")]
    state = {"paused": False, "answered_503": collections.Counter()}
    status = 1
    pool = concurrent.futures.ThreadPoolExecutor(8)
    try:
        # Both at once on the empty database: they create its schema together.
        for instance in instances:
            instance.start()
        for instance in instances:
            instance.wait_ready()
        log(f"A on {instances[0].base}, B on {instances[1].base} ({'PostgreSQL' if postgres else 'SQLite'}, "
            f"started in {time.monotonic() - began:.1f} s)")
        for instance in instances:
            answer = instance.call("GET", "/health")
            if answer.status != 200:
                CHECKS.fail("no-5xx", f"GET /health on {instance.name}: {answer.status} {answer.text()}")
        ledger = Ledger()
        step = time.monotonic()
        part_a(instances, ledger, arguments.duration, pool)
        log(f"a: {time.monotonic() - step:.1f} s")
        step = time.monotonic()
        part_b(instances, ledger, pool)
        log(f"b: {time.monotonic() - step:.1f} s")
        if arguments.pause_cmd:
            step = time.monotonic()
            part_c(instances, ledger, pool, arguments.pause_cmd, arguments.resume_cmd, state)
            log(f"c: {time.monotonic() - step:.1f} s")
        else:
            log("c: skipped (no --pause-cmd/--resume-cmd)")
        Phase.name = "end"
        for instance in instances:
            code = instance.stop()
            if code != 0:
                CHECKS.fail("no-5xx", f"{instance.name} did not exit cleanly on SIGTERM: {code}")
        scan_logs(instances)
        status = CHECKS.report()
    except Exception:
        CHECKS.fail("harness", traceback.format_exc())
        status = CHECKS.report()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
        for instance in instances:
            instance.stop()
        if state["paused"] and arguments.resume_cmd:
            try:
                run_command(arguments.resume_cmd, "resume")
            except Exception as error:
                log(f"could not resume the database: {error}")
        if status != 0:
            for instance in instances:
                for path in instance.logs:
                    lines = [l for l in path.read_text(errors="replace").splitlines()
                             if not re.search(r" [0-9]{3} [0-9.]+ms$", l) or re.search(r" 5\d\d [0-9.]+ms$", l)]
                    if lines:
                        print(f"--- {path.name} (not request lines, and 5xx lines; last 30)", file=sys.stderr)
                        print("\n".join(lines[-30:]), file=sys.stderr)
        if database_name and not arguments.keep:
            try:
                psql(admin_url, f'DROP DATABASE IF EXISTS "{database_name}" WITH (FORCE)')
            except Exception as error:
                log(f"could not drop {database_name}: {error}")
        if arguments.keep or status != 0:
            log(f"logs kept in {workdir}" + (f", database {database_name}" if arguments.keep and database_name else ""))
        else:
            shutil.rmtree(workdir, ignore_errors=True)
        log(f"{time.monotonic() - began:.1f} s in all")
    return status


if __name__ == "__main__":
    sys.exit(main())
