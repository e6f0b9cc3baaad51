"""The HTTP side of ``make loadtest``: locust's users send the GM's requests, one phase after another.

Run by bench/load.py in a process of its own (``python -m bench.load_http CONFIG OUT``): locust's
users are gevent greenlets, and importing locust patches the standard library for gevent, which
the asyncio process that reads the 50 player streams must not get. CONFIG (JSON) says where the
server is, the GM's session (logged in once by bench/load.py: the users share it, as the GM's
tabs share one browser), what "Roll" posts, and the phases; OUT receives, per phase, the
requests' completion times and latencies, and every roll's id with the moment its request was
sent (``time.perf_counter()``: CLOCK_MONOTONIC, the same clock in both processes), from which
bench/load.py measures the push.

Each phase is one locust ``Environment`` with one kind of user:
- ``RollAtPace``: rolls at a steady rate (``constant_throughput``), like a GM, far above a real one;
- ``HomeFlatOut`` / ``RollFlatOut``: closed loops without pause, for throughput.
"""

from __future__ import annotations

import json
import re
import sys
import time
import uuid
from pathlib import Path

import gevent
from locust import FastHttpUser, constant, constant_throughput, task
from locust.env import Environment

CONFIG = json.loads(Path(sys.argv[1]).read_text()) if __name__ == "__main__" else {}
ROLL_ID = re.compile(r'\bid="roll-(\d+)"')

ROLLS: list[tuple[int, float, str]] = []  # (roll id, sent at, phase)


class GM(FastHttpUser):
    abstract = True

    def on_start(self) -> None:
        self.headers = {"Cookie": CONFIG["cookie"], "X-CSRFToken": CONFIG["csrftoken"], "HX-Request": "true"}

    def roll(self) -> None:
        headers = {**self.headers, "Content-Type": "application/x-www-form-urlencoded"}
        sent = time.perf_counter()
        body = f"{CONFIG['roll_body']}&once={uuid.uuid4()}"  # each press a key of its own, as a page's
        with self.client.post(CONFIG["roll_path"], data=body, headers=headers, name="roll",
                              catch_response=True) as answer:
            text = answer.text or ""
            card = ROLL_ID.search(text)
            if answer.status_code == 200 and card:
                ROLLS.append((int(card.group(1)), sent, PHASE))
            else:
                answer.failure(f"{answer.status_code} {' '.join(re.sub(r'<[^>]+>', ' ', text).split())[:200]}")


class RollAtPace(GM):
    wait_time = constant_throughput(1)  # set from the phase's rate

    @task
    def roll_task(self) -> None:
        self.roll()


class RollFlatOut(GM):
    wait_time = constant(0)

    @task
    def roll_task(self) -> None:
        self.roll()


class HomeFlatOut(GM):
    wait_time = constant(0)

    @task
    def home(self) -> None:
        with self.client.get("/", headers=self.headers, name="home", catch_response=True) as answer:
            if answer.status_code != 200:
                answer.failure(f"{answer.status_code}")


USERS = {"roll at pace": RollAtPace, "roll flat out": RollFlatOut, "home flat out": HomeFlatOut}
PHASE = ""


def run_phase(phase: dict) -> dict:
    """One phase: ``users`` users of one kind for ``seconds``; every request's completion and latency."""
    global PHASE
    PHASE = phase["name"]
    user = USERS[phase["users_of"]]
    if phase.get("rate"):
        user.wait_time = constant_throughput(phase["rate"] / phase["users"])
    done: list[tuple[float, float, str | None]] = []  # (completed at, seconds, failure)

    def heard(response_time: float, exception: BaseException | None = None, **_: object) -> None:
        done.append((time.perf_counter(), response_time / 1000, None if exception is None else str(exception)))

    env = Environment(user_classes=[user], host=CONFIG["host"])
    env.events.request.add_listener(heard)
    runner = env.create_local_runner()
    started = time.perf_counter()
    runner.start(phase["users"], spawn_rate=phase["users"])
    gevent.sleep(phase["seconds"])
    runner.quit()  # requests still in flight are dropped, never counted
    return {**phase, "started": started, "ended": started + phase["seconds"], "done": done}


def main() -> None:
    out = Path(sys.argv[2])
    phases = [run_phase(phase) for phase in CONFIG["phases"]]
    out.write_text(json.dumps({"phases": phases, "rolls": ROLLS}))


if __name__ == "__main__":
    main()
