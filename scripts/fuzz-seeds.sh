#!/usr/bin/env bash
# Writes the seed corpora of the libFuzzer targets (tests/fuzz) into DEST/<target>/:
#   - the small hand-written seeds committed in tests/fuzz/seeds/<target>/ (odd cases:
#     Infinity, the oldest writer's keys, restarts in ckpt.log, NA in training.log, ...)
#   - the real output of the demo trainer (scripts/make-demo.sh, five runs with
#     restarts, pruning and the older save/ layout): every ckpt-info.json, ckpt.log,
#     training.log, config.ini, and model.h5 files (Keras 2 HDF5)
#   - Keras 3 weights files and torch.save / .keras zip archives built with h5py and
#     zipfile, as the frameworks lay them out (formats.md section 2)
#   - for the torch, MindSpore, Caffe2, Lightning, Keras/Synalinks and Orbax targets:
#     files written by the tests' fixture writers (tests/fuzz/FuzzSeeds.cpp)
#
#   scripts/fuzz-seeds.sh DEST      uses ${CKPT_BUILD_DIR:-build} for ckpt-demo-train
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dest="${1:?usage: fuzz-seeds.sh DEST}"
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
targets=(fuzz_ckpt_info fuzz_ini_config fuzz_hyper_value fuzz_training_log fuzz_ckpt_log
         fuzz_history_txt fuzz_hdf5_inspect fuzz_model_sniff fuzz_torch_pickle fuzz_torch_zip
         fuzz_mindspore fuzz_caffe2_minidb fuzz_lightning_metrics fuzz_lightning_hparams
         fuzz_keras_template fuzz_synalinks_variables fuzz_orbax_metadata)
for t in "${targets[@]}"; do
  mkdir -p "$dest/$t"
  if [[ -d "$here/tests/fuzz/seeds/$t" ]]; then cp "$here/tests/fuzz/seeds/$t/"* "$dest/$t/"; fi
done

demo="$dest/.demo"
if [[ ! -d "$demo/EXP000" ]]; then
  # Its launches go to a registry of its own, never the user's Experiments tab.
  if ! log=$(XDG_DATA_HOME="$dest/.xdg-data" bash "$here/scripts/make-demo.sh" "$demo" 2>&1); then
    printf '%s\n' "$log" >&2
    echo "fuzz-seeds: scripts/make-demo.sh failed" >&2
    exit 1
  fi
fi
# Copies every file called NAME under the demo into DEST/TARGET, named after its run.
collect() { # collect TARGET NAME [MAX]
  local target="$1" name="$2" max="${3:-1000000}" n=0
  while IFS= read -r f; do
    local tag="${f#"$demo"/}"
    cp "$f" "$dest/$target/demo-${tag//\//_}"
    n=$((n + 1))
    if [[ $n -ge $max ]]; then break; fi
  done < <(find "$demo" -name "$name" -type f | sort)
}
collect fuzz_ckpt_info ckpt-info.json 40
collect fuzz_ckpt_log ckpt.log
collect fuzz_training_log training.log
collect fuzz_ini_config config.ini
collect fuzz_hdf5_inspect model.h5 4
collect fuzz_model_sniff model.h5 2
# Every value of the demo configs is a Python literal: one seed per value.
grep -h '=' "$dest"/fuzz_ini_config/* | sed 's/^[^=]*= *//' | sort -u | head -60 |
  awk -v d="$dest/fuzz_hyper_value" '{ f = sprintf("%s/demo-value-%02d", d, NR); printf "%s", $0 > f; close(f) }'

# The fixture writers live in the normal build (make-demo.sh configured it).
build="${CKPT_BUILD_DIR:-build}"
[[ "$build" = /* ]] || build="$here/$build"
cmake --build "$build" --target ckpt-fuzz-seeds --parallel "${CKPT_BUILD_JOBS:-2}" >/dev/null
"$build/tests/fuzz/ckpt-fuzz-seeds" "$dest"

# Debian's interpreter: h5py and numpy come from its packages (setup-deps.sh).
py=/usr/bin/python3
[[ -x "$py" ]] || py=python3
"$py" - "$dest" <<'PY'
import io, json, sys, zipfile
import h5py, numpy as np
dest = sys.argv[1]

# history.txt: what Keras's History.history dumps as JSON.
hist = {"loss": [0.9, 0.5, 0.31], "val_loss": [1.0, 0.6, float("inf")], "lr": [0.01] * 3}
with open(f"{dest}/fuzz_history_txt/gen-history.txt", "w") as f:
    json.dump(hist, f)

def keras3_weights(path_or_file):
    with h5py.File(path_or_file, "w") as h:
        h.create_dataset("layers/dense/vars/0", data=np.arange(6, dtype="float32").reshape(2, 3))
        h.create_dataset("layers/dense/vars/1", data=np.zeros(3, dtype="float32"))
        bf = h.create_dataset("layers/dense_1/vars/0", data=np.ones((3, 1), dtype="uint16"))
        bf.attrs["dtype"] = "bfloat16"
        h.create_dataset("optimizer/vars/0", data=np.array(3, dtype="int64"))

keras3_weights(f"{dest}/fuzz_hdf5_inspect/gen-keras3.weights.h5")
# Keras 2 weights-only: model_weights content at the root.
with h5py.File(f"{dest}/fuzz_hdf5_inspect/gen-weights-only.h5", "w") as h:
    h.attrs["layer_names"] = np.array([b"dense"])
    h.attrs["backend"] = "tensorflow"
    g = h.create_group("dense")
    g.attrs["weight_names"] = np.array([b"dense/kernel:0", b"dense/bias:0"])
    g.create_dataset("dense/kernel:0", data=np.ones((2, 2), dtype="float64"))
    g.create_dataset("dense/bias:0", data=np.zeros(2, dtype="float16"))

buf = io.BytesIO()
keras3_weights(buf)
with zipfile.ZipFile(f"{dest}/fuzz_model_sniff/gen-model.keras", "w") as z:
    z.writestr("metadata.json", json.dumps({"keras_version": "3.3.3"}))
    z.writestr("config.json", json.dumps({"class_name": "Sequential"}))
    z.writestr("model.weights.h5", buf.getvalue())
for name, stored in (("gen-torch.pt", zipfile.ZIP_STORED), ("gen-torch-deflated.pt", zipfile.ZIP_DEFLATED)):
    with zipfile.ZipFile(f"{dest}/fuzz_model_sniff/{name}", "w", stored) as z:
        z.writestr("archive/data.pkl", b"\x80\x02}q\x00.")
        z.writestr("archive/version", "3\n")
        z.writestr("archive/data/0", np.arange(8, dtype="float32").tobytes())
PY
for t in "${targets[@]}"; do
  printf '%-20s %3d seeds\n' "$t" "$(find "$dest/$t" -type f | wc -l)"
done
