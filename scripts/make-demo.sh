#!/usr/bin/env bash
# Builds ckpt-demo-train and trains a small, deterministic CANDLE experiment
# for demos and manual testing of Ckpt Studio. Takes a few seconds.
#
#   scripts/make-demo.sh [DEST]      DEST defaults to ${CKPT_BUILD_DIR:-build}/demo-experiment
#
# DEST/EXP000/
#   RUN000/  lr 0.01, 12 epochs, checksums on: every epoch kept, best + last
#   RUN001/  lr 0.003, 10 epochs, then restarted from epoch 6 through the
#            launcher (`ckpt launch --from 6 --set learning_rate=0.001`) to 14
#            epochs: the old 007..010 kept under ckpts/.ckpt-studio/superseded/,
#            ckpt.log shows both runs, training.log the restarted one
#   RUN001-fork-e006/  forked from RUN001's epoch 6 with lr 0.01 (`--fork`),
#            trained to 12 epochs; RUN001's epoch 6 is pinned against prune
# The two launches are registered in the user's launched-runs registry
# (~/.local/share/ckpt-studio), so `ckpt runs`, `ckpt lineage` and prune's pins see them.
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
cmake --build "$build" --target ckpt-demo-train ckpt --parallel 2 >/dev/null
train="$build/app/trainer/ckpt-demo-train"
ckpt="$build/app/cli/ckpt"
config="$here/resources/demo/spirals.ini"
config_sgd="$here/resources/demo/spirals-sgd.ini"

rm -rf "$dest"
mkdir -p "$dest/EXP000"
dest="$(cd "$dest" && pwd -P)"
exp="$dest/EXP000"

# run DIR CONFIG [--KEY VALUE]... --metadata TEXT: trains quietly from DIR/config.ini,
# CONFIG with each KEY set to VALUE: the file says what the run was trained with,
# so the restart's and fork's "before" values (lineage, params --diff) are true.
run() {
  local dir="$1" cfg="$2"; shift 2
  mkdir -p "$dir"
  cp "$cfg" "$dir/config.ini"
  while [[ $# -gt 0 && $1 != --metadata ]]; do
    local key="${1#--}" value="$2"; shift 2
    if ! grep -q "^$key = " "$dir/config.ini"; then
      echo "make-demo: $key is not a line of $cfg" >&2
      exit 1
    fi
    sed -i "s|^$key = .*|$key = $value|" "$dir/config.ini"
  done
  "$train" --output_dir "$dir" --config_file "$dir/config.ini" "$@" >"$dir/stdout.txt"
}

echo "make-demo: RUN000 (lr 0.01)"
run "$exp/RUN000" "$config" --learning_rate 0.01 --metadata 'EXP000/RUN000'

echo "make-demo: RUN001 (lr 0.003, restarted from epoch 6 with lr 0.001)"
run "$exp/RUN001" "$config" --learning_rate 0.003 --epochs 10 \
    --metadata 'EXP000/RUN001'
mv "$exp/RUN001/stdout.txt" "$exp/RUN001/stdout-first.txt"
trainer=("$train" --config_file '{config}' --output_dir '{output_dir}' --epochs '{epochs}'
         --ckpt_restart_mode '{ckpt_restart_mode}')
"$ckpt" launch "$exp/RUN001/ckpts" --from 6 --config "$exp/RUN001/config.ini" \
    --set learning_rate=0.001 --set epochs=14 -- "${trainer[@]}" \
    --metadata 'EXP000/RUN001 restart' >"$exp/RUN001/stdout.txt" 2>/dev/null

echo "make-demo: RUN001-fork-e006 (forked from RUN001 epoch 6 with lr 0.01)"
"$ckpt" launch "$exp/RUN001/ckpts" --from 6 --fork --into "$exp/RUN001-fork-e006" \
    --set learning_rate=0.01 --set epochs=12 \
    -- "${trainer[@]}" --metadata 'EXP000/RUN001 fork' \
    >"$exp/RUN001-fork-e006.stdout.txt" 2>/dev/null
mv "$exp/RUN001-fork-e006.stdout.txt" "$exp/RUN001-fork-e006/stdout.txt"

echo "make-demo: RUN002 (lr 0.05, keep_limit 2, interval 2)"
run "$exp/RUN002" "$config" --learning_rate 0.05 --epochs 20 \
    --ckpt_keep_limit 2 --ckpt_save_interval 2 --metadata 'EXP000/RUN002'

echo "make-demo: RUN003 (SGD, save/ckpts layout)"
run "$exp/RUN003" "$config_sgd" --metadata 'job 4242 on node n0042'

echo "make-demo: wrote $dest"
