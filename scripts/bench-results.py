#!/usr/bin/env python3
"""Turns the `@result|area|measure|value|goal|verdict` lines the benchmarks print
into tests/bench/RESULTS.md and the README's benchmark table (between the
`<!-- bench:begin -->` and `<!-- bench:end -->` markers), so that no published
figure is typed by hand. Usage: bench-results.py RAW_OUTPUT REPO [AREA...]
Rows are replaced measure by measure; those not measured this time are kept."""
import datetime, os, re, subprocess, sys

raw_path, repo = sys.argv[1], sys.argv[2]
areas = set(sys.argv[3:])
results_md = os.path.join(repo, "tests", "bench", "RESULTS.md")
readme = os.path.join(repo, "README.md")

new_rows = []
for line in open(raw_path, encoding="utf-8", errors="replace"):
    if line.startswith("@result|"):
        parts = line.rstrip("\n").split("|")[1:]
        if len(parts) == 5:
            new_rows.append(parts)
if not new_rows:
    sys.exit("bench-results: no @result lines in " + raw_path)


def key(area, measure):
    # A measure names its figures in parentheses ("(0.13 s vs 0.08 s)"): not part of its name.
    return area, re.sub(r"\s*\([^)]*\)", "", measure).strip()


ran = {key(r[0], r[1]) for r in new_rows}

# Rows not measured this time are kept from the previous results file (two
# benches may share an area: scan/ and layouts/ both write "scan").
kept, kept_header = [], {}
if os.path.exists(results_md):
    for line in open(results_md, encoding="utf-8"):
        m = re.match(r"^\| (\S+) \| (.*) \| (.*) \| (.*) \| (\S+) \| (.*) \|$", line)
        if m and m.group(1) != "area" and key(m.group(1), m.group(2)) not in ran:
            kept.append(list(m.groups()))
commit = subprocess.run(["git", "-C", repo, "rev-parse", "--short", "HEAD"],
                        capture_output=True, text=True).stdout.strip() or "unknown"
when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
load = os.getloadavg()[0]
stamp = f"{when}, commit {commit}, {os.cpu_count()} cores, load {load:.1f} at the end"
rows = [r + [stamp] for r in new_rows] + kept
order = ["scan", "verify", "watch", "diff", "tensors", "gui", "plot", "fork", "launch"]
rows.sort(key=lambda r: (order.index(r[0]) if r[0] in order else len(order), r[0]))

table = ["| area | measure | result | goal | verdict | measured |",
         "|---|---|---|---|---|---|"]
table += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} | {r[5]} |" for r in rows]
with open(results_md, "w", encoding="utf-8") as f:
    f.write("# Benchmark results\n\nWritten by `scripts/bench.sh` from the benchmarks' own "
            "output (never edited by hand). Each ratio compares our code with a baseline "
            "measured in the same run on the same files; see tests/bench/<area>/run.sh.\n\n")
    f.write("\n".join(table) + "\n")

short = ["| area | measure | result | goal | verdict |", "|---|---|---|---|---|"]
short += [f"| {r[0]} | {r[1]} | {r[2]} | {r[3]} | {r[4]} |" for r in rows]
text = open(readme, encoding="utf-8").read()
begin, end = "<!-- bench:begin -->", "<!-- bench:end -->"
if begin in text and end in text:
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    text = head + begin + "\n" + "\n".join(short) + "\n" + end + tail
    open(readme, "w", encoding="utf-8").write(text)
print(f"bench-results: {len(new_rows)} new rows, {len(kept)} kept -> {results_md}")
