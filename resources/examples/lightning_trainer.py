#!/usr/bin/env python3
"""A small PyTorch Lightning-style trainer, to show that Ckpt Studio restarts and
forks Lightning runs. Needs PyTorch and PyYAML (Debian: python3-torch, which
brings python3-yaml); not Lightning itself.

It fits a two-layer regression net on generated data with SGD (momentum) and a
StepLR schedule, and writes what Lightning's CSVLogger and ModelCheckpoint write
(see the project's formats notes):

  <default_root_dir>/lightning_logs/version_N/hparams.yaml   the hyperparameters
  <default_root_dir>/lightning_logs/version_N/metrics.csv    epoch,step,... rows
  <default_root_dir>/lightning_logs/version_N/checkpoints/epoch=E-step=S.ckpt

Each .ckpt is a torch.save of the keys Lightning writes: epoch, global_step,
pytorch-lightning_version, state_dict, optimizer_states, lr_schedulers,
callbacks, loops, hparams_name and hyper_parameters. Epochs count from 0.

Resume as Lightning's `trainer.fit(model, ckpt_path=PATH)` does: weights,
epoch, global step, AND the optimizer and scheduler states come back, so a
learning rate changed in the config does not take effect (the logged `lr`
column is read from the restored optimizer). `--ckpt_path last` resumes from
the newest checkpoint of this version, if any. A resumed run writes a new
version folder unless --version names one:

  python3 lightning_trainer.py --config hparams.yaml --default_root_dir . \\
      --ckpt_path lightning_logs/version_0/checkpoints/epoch=1-step=20.ckpt --version 1
"""
import argparse
import csv
import os
import re
import sys
import time

try:
    import torch
    import yaml
except ImportError as exc:  # say what to install instead of a traceback
    sys.exit("lightning_trainer: %s (install python3-torch)" % exc)

DEFAULTS = {"max_epochs": 6, "lr": 0.05, "momentum": 0.9, "hidden": 16, "batch_size": 32,
            "samples": 512, "step_size": 100, "gamma": 0.5, "seed": 7, "epoch_delay": 0.0}
CKPT_NAME = re.compile(r"^epoch=(\d+)-step=(\d+)\.ckpt$")


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--config", help="hyperparameters (YAML, top-level key: value)")
    parser.add_argument("--default_root_dir", default=".")
    parser.add_argument("--ckpt_path", help="a .ckpt to resume from, or 'last'")
    parser.add_argument("--version", type=int, help="the logger version (default: the next)")
    for key, value in DEFAULTS.items():
        parser.add_argument("--" + key, type=type(value))
    args = parser.parse_args()
    hparams = dict(DEFAULTS)
    if args.config:
        with open(args.config) as f:
            loaded = yaml.safe_load(f) or {}
        if not isinstance(loaded, dict):
            sys.exit("lightning_trainer: %s: not a mapping of hyperparameters" % args.config)
        hparams.update({k: v for k, v in loaded.items() if k in DEFAULTS})
    hparams.update({k: getattr(args, k) for k in DEFAULTS if getattr(args, k) is not None})
    return args, hparams


def next_version(logs):
    versions = [int(n[len("version_"):]) for n in os.listdir(logs)
                if n.startswith("version_") and n[len("version_"):].isdigit()] \
        if os.path.isdir(logs) else []
    return max(versions) + 1 if versions else 0


def newest_checkpoint(folder):
    best = None
    for name in os.listdir(folder) if os.path.isdir(folder) else []:
        m = CKPT_NAME.match(name)
        if m and (best is None or int(m.group(2)) > best[0]):
            best = (int(m.group(2)), os.path.join(folder, name))
    return best[1] if best else None


def data(hp):
    g = torch.Generator().manual_seed(hp["seed"])
    x = torch.randn(hp["samples"], 4, generator=g)
    y = (x @ torch.tensor([[1.5], [-2.0], [0.5], [1.0]]) + 0.3 * torch.sin(3 * x[:, :1])
         + 0.05 * torch.randn(hp["samples"], 1, generator=g))
    cut = hp["samples"] * 4 // 5
    return (x[:cut], y[:cut]), (x[cut:], y[cut:])


def main():
    args, hp = parse_args()
    torch.manual_seed(hp["seed"])
    logs = os.path.join(args.default_root_dir, "lightning_logs")
    version = args.version if args.version is not None else next_version(logs)
    log_dir = os.path.join(logs, "version_%d" % version)
    ckpt_dir = os.path.join(log_dir, "checkpoints")
    os.makedirs(ckpt_dir, exist_ok=True)

    model = torch.nn.Sequential(torch.nn.Linear(4, hp["hidden"]), torch.nn.Tanh(),
                                torch.nn.Linear(hp["hidden"], 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=hp["lr"], momentum=hp["momentum"])
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, hp["step_size"], hp["gamma"])
    start_epoch, global_step = 0, 0
    ckpt_path = args.ckpt_path
    if ckpt_path == "last":
        ckpt_path = newest_checkpoint(ckpt_dir)
    if ckpt_path:
        state = torch.load(ckpt_path)
        model.load_state_dict(state["state_dict"])
        optimizer.load_state_dict(state["optimizer_states"][0])
        scheduler.load_state_dict(state["lr_schedulers"][0])
        start_epoch, global_step = state["epoch"] + 1, state["global_step"]
        print("resumed from %s at epoch %d, step %d, lr %g"
              % (ckpt_path, start_epoch, global_step, optimizer.param_groups[0]["lr"]))

    with open(os.path.join(log_dir, "hparams.yaml"), "w") as f:
        yaml.safe_dump(hp, f, sort_keys=False)
    metrics = os.path.join(log_dir, "metrics.csv")
    fresh = not os.path.exists(metrics)
    (tx, ty), (vx, vy) = data(hp)
    loss_fn = torch.nn.MSELoss()
    with open(metrics, "a", newline="") as out:
        rows = csv.writer(out)
        if fresh:
            rows.writerow(["epoch", "step", "train_loss", "val_loss", "lr"])
        for epoch in range(start_epoch, hp["max_epochs"]):
            order = torch.randperm(len(tx), generator=torch.Generator().manual_seed(epoch))
            total = 0.0
            for i in range(0, len(tx), hp["batch_size"]):
                idx = order[i:i + hp["batch_size"]]
                optimizer.zero_grad()
                loss = loss_fn(model(tx[idx]), ty[idx])
                loss.backward()
                optimizer.step()
                scheduler.step()
                global_step += 1
                total += loss.item() * len(idx)
            with torch.no_grad():
                val_loss = loss_fn(model(vx), vy).item()
            lr = optimizer.param_groups[0]["lr"]
            rows.writerow([epoch, global_step - 1, total / len(tx), val_loss, lr])
            out.flush()
            state = {"epoch": epoch, "global_step": global_step,
                     "pytorch-lightning_version": "2.1.0",
                     "state_dict": model.state_dict(),
                     "optimizer_states": [optimizer.state_dict()],
                     "lr_schedulers": [scheduler.state_dict()],
                     "callbacks": {}, "loops": {}, "hparams_name": "kwargs",
                     "hyper_parameters": dict(hp)}
            name = "epoch=%d-step=%d.ckpt" % (epoch, global_step)
            torch.save(state, os.path.join(ckpt_dir, name))
            print("epoch %d step %d val_loss %.5f lr %g" % (epoch, global_step, val_loss, lr),
                  flush=True)
            time.sleep(hp["epoch_delay"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
