#!/usr/bin/env python3
"""A small CANDLE-style trainer, to show that Ckpt Studio launches programs that
are not its own. Needs only NumPy and h5py (Debian: python3-numpy python3-h5py).

It trains a softmax classifier with one hidden layer on generated Gaussian
blobs and checkpoints like CANDLE's checkpoint callback (Benchmarks `common/`
generation, see the project's formats notes):

  <ckpt_directory, default ./save>/ckpts/epochs/NNN/{model.h5,ckpt-info.json}
  <ckpt_directory>/ckpts/last, best     relative symlinks (epochs/NNN)
  <ckpt_directory>/ckpt.log             "<time> CandleCheckpoint: ..." lines
  <output_dir, default .>/training.log  Keras CSVLogger history (0-based epochs)

Save: model + ckpt-info.json written into ckpts/work/, an existing epochs/NNN
removed, work/ renamed to epochs/NNN, best (when improved) and last relinked,
then the linear keep policy. Restart (ckpt_restart_mode off|auto|required)
reads ./save/ckpts/last RELATIVE TO THE WORKING DIRECTORY, as CANDLE does:
run it in the folder that holds save/. With ckpt_checksum on, every model
file's zlib.crc32 goes into ckpt-info.json and a restart verifies it.

Parameters: a CANDLE INI (--config_file; every section merged, first key wins,
values are Python literals), overridden by --key value on the command line:

  python3 candle_trainer.py --config_file candle_trainer.ini --epochs 10 \\
      --learning_rate 0.01 --output_dir . --ckpt_restart_mode auto
"""
import argparse
import ast
import configparser
import datetime
import json
import math
import os
import shutil
import sys
import time
import zlib

try:
    import h5py
    import numpy as np
except ImportError as exc:  # say what to install instead of a traceback
    sys.exit("candle_trainer: %s (install python3-numpy and python3-h5py)" % exc)

DEFAULTS = {
    "epochs": 10, "batch_size": 32, "learning_rate": 0.01, "hidden": 16, "classes": 3,
    "samples_per_class": 150, "validation_split": 0.2, "seed": 7, "output_dir": ".",
    "metadata": None,
    "ckpt_restart_mode": "auto", "ckpt_checksum": False, "ckpt_skip_epochs": 0,
    "ckpt_directory": "./save", "ckpt_save_best": True, "ckpt_save_best_metric": "val_loss",
    "ckpt_save_weights_only": False, "ckpt_save_interval": 1, "ckpt_keep_mode": "linear",
    "ckpt_keep_limit": 1000000, "ckpt_best_metric_last": None, "ckpt_timestamp_last": None,
}
TRUE = {"yes", "true", "t", "y", "1"}
FALSE = {"no", "false", "f", "n", "0"}
LOWER_IS_BETTER = {"loss", "val_loss", "lr"}
HIGHER_IS_BETTER = {"accuracy", "val_accuracy"}


def literal(text):
    """A CANDLE value: a Python literal, else the text itself."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def as_bool(value):
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    raise ValueError("not a boolean: %r" % (value,))


def parameters(argv):
    """Defaults, then the INI file, then --key value pairs (command line wins)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--config_file")
    known, rest = parser.parse_known_args(argv)
    params = dict(DEFAULTS)
    if known.config_file:
        ini = configparser.ConfigParser(interpolation=None)
        with open(known.config_file, encoding="utf-8") as f:
            ini.read_file(f)
        seen = set()
        for section in ini.sections():
            for key, value in ini.items(section):
                if key not in seen:  # first key wins
                    seen.add(key)
                    params[key.lower()] = literal(value)
    i = 0
    while i < len(rest):
        arg = rest[i]
        if not arg.startswith("--") or i + 1 >= len(rest):
            sys.exit("candle_trainer: expected --key value, got %r" % arg)
        params[arg[2:].lower()] = literal(rest[i + 1])
        i += 2
    for key in ("ckpt_checksum", "ckpt_save_best", "ckpt_save_weights_only"):
        params[key] = as_bool(params[key])
    params["ckpt_restart_mode"] = str(params["ckpt_restart_mode"]).lower()
    if params["ckpt_restart_mode"] not in ("off", "auto", "required"):
        sys.exit("candle_trainer: ckpt_restart_mode must be off, auto or required")
    return params


class CkptLog:
    """ckpt.log lines as CANDLE's logging writes them."""

    def __init__(self, path):
        self.path = path
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)

    def write(self, tag, message):
        now = time.time()
        stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))
        with open(self.path, "a", encoding="utf-8") as f:
            f.write("%s,%03d %s: %s\n" % (stamp, int(now * 1000) % 1000, tag, message))


def crc32_of(path):
    crc = 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(10 * 1024 * 1024), b""):
            crc = zlib.crc32(block, crc)
    return crc & 0xFFFFFFFF


class Model:
    """Dense(hidden, relu) -> Dense(classes, softmax), plain gradient descent."""

    def __init__(self, inputs, hidden, classes, rng):
        self.w = {
            "dense_1": [rng.normal(0, 1 / math.sqrt(inputs), (inputs, hidden)), np.zeros(hidden)],
            "dense_2": [rng.normal(0, 1 / math.sqrt(hidden), (hidden, classes)), np.zeros(classes)],
        }

    def forward(self, x):
        h = np.maximum(0, x @ self.w["dense_1"][0] + self.w["dense_1"][1])
        z = h @ self.w["dense_2"][0] + self.w["dense_2"][1]
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        return h, p / p.sum(axis=1, keepdims=True)

    def evaluate(self, x, y):
        _, p = self.forward(x)
        loss = -np.log(p[np.arange(len(y)), y] + 1e-12).mean()
        return float(loss), float((p.argmax(axis=1) == y).mean())

    def step(self, x, y, lr):
        h, p = self.forward(x)
        d = p.copy()
        d[np.arange(len(y)), y] -= 1
        d /= len(y)
        w2, b2 = self.w["dense_2"]
        dh = (d @ w2.T) * (h > 0)
        self.w["dense_2"] = [w2 - lr * h.T @ d, b2 - lr * d.sum(axis=0)]
        w1, b1 = self.w["dense_1"]
        self.w["dense_1"] = [w1 - lr * x.T @ dh, b1 - lr * dh.sum(axis=0)]

    def save(self, path, params):
        """A Keras 2 style HDF5 file: model_weights/<layer>/<layer>/kernel:0, bias:0."""
        config = {"class_name": "Sequential", "config": {"name": "candle_example", "layers": [
            {"class_name": "Dense", "config": {"name": n, "units": int(self.w[n][1].shape[0])}}
            for n in ("dense_1", "dense_2")]}}
        with h5py.File(path, "w") as f:
            f.attrs["keras_version"] = "2.15.0"
            f.attrs["backend"] = "numpy"
            f.attrs["model_config"] = json.dumps(config)
            f.attrs["training_config"] = json.dumps(
                {"optimizer_config": {"class_name": "SGD",
                                      "config": {"learning_rate": params["learning_rate"]}}})
            weights = f.create_group("model_weights")
            weights.attrs["layer_names"] = [n.encode() for n in self.w]
            for name, (kernel, bias) in self.w.items():
                layer = weights.create_group(name)
                layer.attrs["weight_names"] = [("%s/%s:0" % (name, k)).encode()
                                               for k in ("kernel", "bias")]
                layer.create_dataset("%s/kernel:0" % name, data=kernel.astype(np.float32))
                layer.create_dataset("%s/bias:0" % name, data=bias.astype(np.float32))

    def load(self, path):
        with h5py.File(path, "r") as f:
            for name in self.w:
                group = f["model_weights"][name][name]
                self.w[name] = [np.array(group["kernel:0"], dtype=np.float64),
                                np.array(group["bias:0"], dtype=np.float64)]


def checkpoint_paths(ckpt_directory):
    """(checkpoint root, ckpt.log). CANDLE's Benchmarks take ckpt_directory as
    the folder above ckpts/ (default ./save, log in it); candle_lib's newer
    callbacks and Ckpt Studio's launcher ({ckpt_directory}) name the root itself."""
    path = os.path.normpath(ckpt_directory)
    if os.path.basename(path) != "ckpts":
        return os.path.join(path, "ckpts"), os.path.join(path, "ckpt.log")
    parent = os.path.dirname(path)
    if os.path.basename(parent) == "save":
        return path, os.path.join(parent, "ckpt.log")
    return path, os.path.join(path, "ckpt.log")


class CandleCheckpoint:
    """The CANDLE checkpoint protocol: save decision, work/ then rename,
    best/last links, keep policy, ckpt-info.json, restart."""

    def __init__(self, params):
        self.p = params
        self.root, log = checkpoint_paths(params["ckpt_directory"])
        self.log = CkptLog(log)
        self.metric = params["ckpt_save_best_metric"]
        best = params["ckpt_best_metric_last"]
        self.best_metric_last = float("inf") if best is None else float(best)
        self.epoch_best = 0
        self.written = []  # epochs this process saved: the only ones it may prune
        self.timestamp_last = None

    def initialize(self):
        """After restart(), as CANDLE creates its callback after restarting."""
        params = self.p
        self.log.write("CandleCheckpoint", "Callback initialized.")
        if params["metadata"] is not None:
            self.log.write("CandleCheckpoint", "metadata='%s'" % params["metadata"])
        if params["ckpt_save_best"]:
            self.log.write("CandleCheckpoint", "save_best_metric='%s'" % self.metric)
        self.log.write("CandleCheckpoint", "PWD: " + os.getcwd())
        self.log.write("CandleCheckpoint", "ckpt_directory: " + os.path.abspath(self.root))

    def restart(self, model):
        """The epoch to start after (0: fresh). Reads ./save/ckpts/last from the
        working directory whatever ckpt_directory says, as CANDLE does."""
        mode = self.p["ckpt_restart_mode"]
        if mode == "off":
            return 0
        last = os.path.join("save", "ckpts", "last")
        model_file = os.path.join(last, "model.h5")
        say = lambda message: self.log.write("CANDLE restart()", message)  # noqa: E731
        if not os.path.exists(model_file):
            if mode == "required":
                say("ckpt_restart_mode is 'required' but no checkpoint could be found")
                sys.exit("candle_trainer: restart required but %s is missing" % model_file)
            return 0
        say("restarting: " + model_file)
        with open(os.path.join(last, "ckpt-info.json"), encoding="utf-8") as f:
            info = json.load(f)  # Python's json reads the bare Infinity it writes
        say("ckpt-info.json contains:")
        say(json.dumps(info, indent=2))
        if self.p["ckpt_checksum"]:
            start = time.time()
            computed = str(crc32_of(model_file))
            say("checksummed: %0.3f MB in %.3f seconds." %
                (os.path.getsize(model_file) / 1e6, time.time() - start))
            if computed != info.get("checksum"):
                say("checksum mismatch! directory: %s" % last)
                sys.exit("candle_trainer: checksum mismatch in %s: ckpt-info.json says %s, "
                         "model.h5 has %s" % (last, info.get("checksum"), computed))
        model.load(model_file)
        if info.get("best_metric_last") is not None:
            self.best_metric_last = float(info["best_metric_last"])
        say("restarting from epoch: %i" % info["epoch"])
        return int(info["epoch"])

    def improved(self, epoch, logs):
        if not self.p["ckpt_save_best"]:
            return False
        current = logs[self.metric]
        last = self.best_metric_last
        symbol = "<" if current < last else ">" if current > last else "="
        self.log.write("CandleCheckpoint", "metrics: %s: current=%f %s last=%f" %
                       (self.metric, current, symbol, last))
        better = current < last if self.metric in LOWER_IS_BETTER else current > last
        if better:
            self.best_metric_last = current
            self.epoch_best = epoch
        return better

    def on_epoch_end(self, epoch, logs, model):
        p = self.p
        if p["ckpt_save_interval"] == 0:
            return
        if epoch < p["ckpt_skip_epochs"]:
            self.log.write("CandleCheckpoint",
                           "model saving disabled until epoch %d" % p["ckpt_skip_epochs"])
            return
        improved = self.improved(epoch, logs)
        if not (improved or epoch == p["epochs"] or epoch % p["ckpt_save_interval"] == 0):
            self.log.write("CandleCheckpoint", "not writing this epoch.")
            return
        self.save(epoch, model)

    def relink(self, name, epoch):
        """A relative link epochs/NNN, made aside and renamed over the old one."""
        link = os.path.join(self.root, name)
        aside = link + ".new"
        if os.path.lexists(aside):
            os.unlink(aside)
        os.symlink(os.path.join("epochs", "%03i" % epoch), aside)
        os.replace(aside, link)
        self.log.write("CandleCheckpoint", "linking: '%s' -> 'epochs/%03i'" % (link, epoch))

    def save(self, epoch, model):
        epochs = os.path.join(self.root, "epochs")
        this = os.path.join(epochs, "%03i" % epoch)
        work = os.path.join(self.root, "work")
        os.makedirs(epochs, exist_ok=True)
        if os.path.exists(work):
            shutil.rmtree(work)  # our own interrupted save
        os.makedirs(work)
        model_file = os.path.join(work, "model.h5")
        self.log.write("CandleCheckpoint", "writing model to: '%s'" % model_file)
        start = time.time()
        model.save(model_file, self.p)
        size = os.path.getsize(model_file) / (1024 * 1024)
        secs = time.time() - start
        self.log.write("CandleCheckpoint", "model wrote: %0.3f MB in %0.3f seconds (%0.2f MB/s)." %
                       (size, secs, size / secs if secs > 0 else 0.0))
        checksum = str(crc32_of(model_file)) if self.p["ckpt_checksum"] else "__DISABLED__"
        now = datetime.datetime.now()
        elapsed = "__FIRST__" if self.timestamp_last is None else \
            (now - self.timestamp_last).total_seconds()
        self.timestamp_last = now
        info = {"epoch": epoch,
                "save_best_metric": self.metric if self.p["ckpt_save_best"] else None,
                "best_metric_last": self.best_metric_last, "model_file": "model.h5",
                "checksum": checksum, "timestamp": now.strftime("%Y-%m-%d %H:%M:%S"),
                "time_elapsed": elapsed, "metadata": self.p["metadata"]}
        with open(os.path.join(work, "ckpt-info.json"), "w", encoding="utf-8") as f:
            json.dump(info, f)
        if os.path.exists(this):
            self.log.write("CandleCheckpoint", "remove:  '%s'" % this)
            shutil.rmtree(this)
        self.log.write("CandleCheckpoint", "rename:  '%s' -> '%s'" % (work, this))
        os.rename(work, this)
        if epoch not in self.written:
            self.written.append(epoch)
        if self.epoch_best == epoch:
            self.relink("best", epoch)
        self.relink("last", epoch)
        self.prune(epoch)

    def prune(self, now):
        """Linear keep policy: newest first, keep this epoch, the best and up to
        ckpt_keep_limit others; only epochs this process wrote."""
        kept = 0
        for epoch in sorted(self.written, reverse=True):
            if epoch in (now, self.epoch_best):
                continue
            if kept < self.p["ckpt_keep_limit"]:
                kept += 1
                continue
            path = os.path.join(self.root, "epochs", "%03i" % epoch)
            self.log.write("CandleCheckpoint", "removing: '%s'" % path)
            shutil.rmtree(path, ignore_errors=True)
            self.written.remove(epoch)


def blobs(params, rng):
    n, k = params["samples_per_class"], params["classes"]
    centres = rng.normal(0, 2.5, (k, 2))
    x = np.concatenate([rng.normal(c, 1.2, (n, 2)) for c in centres])
    y = np.repeat(np.arange(k), n)
    order = rng.permutation(len(y))
    x, y = x[order], y[order]
    split = int(len(y) * (1 - params["validation_split"]))
    return (x[:split], y[:split]), (x[split:], y[split:])


def main(argv):
    params = parameters(argv)
    rng = np.random.default_rng(params["seed"])
    (x, y), (vx, vy) = blobs(params, rng)
    model = Model(2, params["hidden"], params["classes"], rng)
    ckpt = CandleCheckpoint(params)
    initial_epoch = ckpt.restart(model)
    ckpt.initialize()

    # Keras' CSVLogger: a restart appends, a fresh run starts the file anew.
    os.makedirs(params["output_dir"], exist_ok=True)
    log_path = os.path.join(params["output_dir"], "training.log")
    keys = ["accuracy", "loss", "lr", "val_accuracy", "val_loss"]
    fresh = initial_epoch == 0 or not os.path.exists(log_path)
    with open(log_path, "w" if fresh else "a", encoding="utf-8") as csv:
        if fresh:
            csv.write("epoch," + ",".join(keys) + "\n")
        lr = float(params["learning_rate"])
        batch = int(params["batch_size"])
        for epoch in range(initial_epoch + 1, int(params["epochs"]) + 1):
            order = np.random.default_rng(params["seed"] * 1000 + epoch).permutation(len(y))
            for start in range(0, len(y), batch):
                idx = order[start:start + batch]
                model.step(x[idx], y[idx], lr)
            loss, acc = model.evaluate(x, y)
            val_loss, val_acc = model.evaluate(vx, vy)
            logs = {"accuracy": acc, "loss": loss, "lr": lr, "val_accuracy": val_acc,
                    "val_loss": val_loss}
            csv.write("%d,%s\n" % (epoch - 1, ",".join(repr(logs[k]) for k in keys)))
            csv.flush()
            print("epoch %d/%d: loss %.4f val_loss %.4f lr %g" %
                  (epoch, params["epochs"], loss, val_loss, lr), flush=True)
            ckpt.on_epoch_end(epoch, logs, model)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
