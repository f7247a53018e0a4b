"""The bf16 elements each LLVM IR file's vector loads read (plain and
masked: a bound shape's loads need no masks), written out; exits 1 unless
the first two files read as many and the third more."""
import re
import sys

counts = []
for path in sys.argv[1:]:
    text = open(path).read()
    plain = re.findall(r"= load <(\d+) x bfloat>", text)
    masked = re.findall(r"call <(\d+) x bfloat> @llvm\.masked\.load", text)
    counts.append(sum(int(n) for n in plain + masked))
print("bf16 elements loaded", *counts)
sys.exit(not (counts[0] == counts[1] < counts[2]))
