#!/usr/bin/env python3
"""A small Orbax-style trainer, to show that Ckpt Studio restarts and forks runs
of a JAX/Orbax training loop. Needs only NumPy (Debian: python3-numpy); not JAX.

It fits a linear model with momentum SGD on generated data and checkpoints as
orbax.checkpoint.CheckpointManager does (see the project's formats notes):

  <checkpoint_dir>/<step>/default/state.npz      the train state (Orbax itself
                                                   writes OCDBT/zarr here)
  <checkpoint_dir>/<step>/_CHECKPOINT_METADATA   JSON: metrics, commit time,
                                                   custom_metadata

each step written into <step>.orbax-checkpoint-tmp-<time> first and renamed into
place when complete, as Orbax does; max_to_keep deletes the oldest steps.
Resume as `manager.restore(step)`: --restore_step N (or latest) loads the state
of step N (weights, optimizer momentum, step) and trains on from step N + 1.
Hyperparameters come from a JSON file (--config), overridden by --key value:

  python3 orbax_trainer.py --config params.json --checkpoint_dir ckpts --steps 40
"""
import argparse
import json
import os
import shutil
import sys
import time

try:
    import numpy as np
except ImportError as exc:  # say what to install instead of a traceback
    sys.exit("orbax_trainer: %s (install python3-numpy)" % exc)

DEFAULTS = {"steps": 40, "save_every": 10, "lr": 0.05, "momentum": 0.9, "batch_size": 32,
            "max_to_keep": 0, "seed": 3, "step_delay": 0.0}
METADATA = "_CHECKPOINT_METADATA"
TMP = ".orbax-checkpoint-tmp"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", help="hyperparameters (a JSON object)")
    parser.add_argument("--checkpoint_dir", default="ckpts")
    parser.add_argument("--restore_step", help="the step to restore, or 'latest'")
    for key, value in DEFAULTS.items():
        parser.add_argument("--" + key, type=type(value))
    args = parser.parse_args()
    hp = dict(DEFAULTS)
    if args.config:
        with open(args.config) as f:
            loaded = json.load(f)
        if not isinstance(loaded, dict):
            sys.exit("orbax_trainer: %s: not a JSON object" % args.config)
        hp.update({k: v for k, v in loaded.items() if k in DEFAULTS})
    hp.update({k: getattr(args, k) for k in DEFAULTS if getattr(args, k) is not None})
    return args, hp


def all_steps(folder):
    return sorted(int(n) for n in os.listdir(folder) if n.isdigit()
                  and os.path.isfile(os.path.join(folder, n, METADATA))) \
        if os.path.isdir(folder) else []


def save(folder, step, state, metrics, hp):
    tmp = os.path.join(folder, "%d%s-%d" % (step, TMP, time.time_ns()))
    os.makedirs(os.path.join(tmp, "default"))
    np.savez(os.path.join(tmp, "default", "state.npz"), **state)
    now = time.time_ns()
    meta = {"item_handlers": {"default": "PyTreeCheckpointHandler"}, "metrics": metrics,
            "performance_metrics": {}, "init_timestamp_nsecs": now,
            "commit_timestamp_nsecs": now, "custom_metadata": {"lr": hp["lr"]}}
    with open(os.path.join(tmp, METADATA), "w") as f:
        json.dump(meta, f)
    os.rename(tmp, os.path.join(folder, str(step)))
    if hp["max_to_keep"] > 0:
        for old in all_steps(folder)[:-hp["max_to_keep"]]:
            shutil.rmtree(os.path.join(folder, str(old)))


def main():
    args, hp = parse_args()
    folder = args.checkpoint_dir
    os.makedirs(folder, exist_ok=True)
    rng = np.random.default_rng(hp["seed"])
    x = rng.normal(size=(400, 5))
    y = x @ np.array([1.0, -2.0, 0.5, 3.0, -1.0]) + 0.1 * rng.normal(size=400)
    tx, ty, vx, vy = x[:320], y[:320], x[320:], y[320:]
    state = {"w": np.zeros(5), "v": np.zeros(5), "step": np.array(0)}
    if args.restore_step:
        steps = all_steps(folder)
        step = steps[-1] if args.restore_step == "latest" and steps else None
        if args.restore_step != "latest":
            step = int(args.restore_step)
        if step is not None:
            with np.load(os.path.join(folder, str(step), "default", "state.npz")) as saved:
                state = {k: saved[k] for k in saved.files}
            print("restored step %d" % step, flush=True)
    step = int(state["step"])
    while step < hp["steps"]:
        step += 1
        batch = np.random.default_rng(step).integers(0, len(tx), hp["batch_size"])
        err = tx[batch] @ state["w"] - ty[batch]
        grad = 2 * tx[batch].T @ err / len(batch)
        state["v"] = hp["momentum"] * state["v"] + grad
        state["w"] = state["w"] - hp["lr"] * state["v"]
        state["step"] = np.array(step)
        if step % hp["save_every"] == 0:
            metrics = {"loss": float(np.mean(err ** 2)),
                       "val_loss": float(np.mean((vx @ state["w"] - vy) ** 2))}
            save(folder, step, state, metrics, hp)
            print("step %d val_loss %.5f" % (step, metrics["val_loss"]), flush=True)
            time.sleep(hp["step_delay"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
