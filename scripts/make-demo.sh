#!/usr/bin/env bash
# Builds ckpt-demo-train and trains a small, deterministic CANDLE experiment
# for demos and manual testing of Ckpt Studio. Takes a few seconds.
#
#   scripts/make-demo.sh [DEST]      DEST defaults to ${CKPT_BUILD_DIR:-build}/demo-experiment
#
# DEST/EXP000/
#   RUN000/  lr 0.01, 12 epochs, checksums on: every epoch kept, best + last
#   RUN001/  lr 0.003, 10 epochs, then rolled back to epoch 6 (last re-pointed)
#            and restarted to 14 epochs: epochs 007..010 overwritten, ckpt.log
#            shows both runs, training.log only the restarted one
#   RUN002/  lr 0.05, 20 epochs, ckpt_keep_limit 2 and ckpt_save_interval 2:
#            sparse history (pruned), best kept
#   RUN003/  SGD, older layout: save/ckpts/ and save/ckpt.log, skip 2 epochs,
#            interval 3, monitored metric val_accuracy: CANDLE's quirk keeps
#            best_metric_last at Infinity and writes no best link; saves 3, 6, 9, 10
# Each run folder also holds config.ini (the INI it was started with),
# stdout.txt and training.log.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${CKPT_BUILD_DIR:-build}"
[[ "$build" = /* ]] || build="$here/$build"
dest="${1:-$build/demo-experiment}"

if [[ ! -f "$build/CMakeCache.txt" ]]; then
  cmake -S "$here" -B "$build" -G Ninja >/dev/null
fi
cmake --build "$build" --target ckpt-demo-train --parallel 2 >/dev/null
train="$build/app/trainer/ckpt-demo-train"
config="$here/resources/demo/spirals.ini"
config_sgd="$here/resources/demo/spirals-sgd.ini"

rm -rf "$dest"
mkdir -p "$dest/EXP000"
dest="$(cd "$dest" && pwd -P)"
exp="$dest/EXP000"

run() { # run DIR CONFIG ARGS...: trains quietly, keeps the config beside the run
  local dir="$1" cfg="$2"; shift 2
  mkdir -p "$dir"
  cp "$cfg" "$dir/config.ini"
  "$train" --output_dir "$dir" --config_file "$cfg" "$@" >"$dir/stdout.txt"
}

echo "make-demo: RUN000 (lr 0.01)"
run "$exp/RUN000" "$config" --learning_rate 0.01 --metadata 'EXP000/RUN000'

echo "make-demo: RUN001 (lr 0.003, rolled back to epoch 6 and restarted)"
run "$exp/RUN001" "$config" --learning_rate 0.003 --epochs 10 \
    --metadata 'EXP000/RUN001'
ln -sfn "$exp/RUN001/ckpts/epochs/006" "$exp/RUN001/ckpts/last"
mv "$exp/RUN001/stdout.txt" "$exp/RUN001/stdout-first.txt"
run "$exp/RUN001" "$config" --learning_rate 0.003 --epochs 14 \
    --ckpt_restart_mode required --metadata 'EXP000/RUN001 restart'

echo "make-demo: RUN002 (lr 0.05, keep_limit 2, interval 2)"
run "$exp/RUN002" "$config" --learning_rate 0.05 --epochs 20 \
    --ckpt_keep_limit 2 --ckpt_save_interval 2 --metadata 'EXP000/RUN002'

echo "make-demo: RUN003 (SGD, save/ckpts layout)"
run "$exp/RUN003" "$config_sgd" --metadata 'job 4242 on node n0042'

echo "make-demo: wrote $dest"
