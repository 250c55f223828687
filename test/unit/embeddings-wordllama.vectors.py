"""Regenerates embeddings-wordllama.vectors.json: token ids and unit vectors from the Python
reference implementation (PyPI wordllama 0.4.0.post1), for embeddings-wordllama.test.ts.
Run once in a throwaway virtualenv:
  python3 -m venv /tmp/wlvenv && /tmp/wlvenv/bin/pip install wordllama==0.4.0.post1
  /tmp/wlvenv/bin/python test/unit/embeddings-wordllama.vectors.py > test/unit/embeddings-wordllama.vectors.json
WordLlama.load() finds the weights inside the installed package, but looks for the tokenizer in
`wordllama/tokenizer/` while the wheel ships it in `wordllama/tokenizers/` (0.4.0.post1), and
would then download it; so it is copied into a cache directory and downloads are disabled."""
import json
import shutil
import tempfile
from pathlib import Path

import wordllama
from wordllama import WordLlama

PHRASES = [
    "can't catch my breath",
    "SOB",
    "hives",
    "coughing up blood",
    "fever",
    "wheezing",
    "palpitations",
    "ear pain",
    "tarry stools",
    "smoker",
    "61M smoker, crushing CP radiating to L arm, diaphoretic, SOB",
    "Sharp chest pain, worse when breathing in, better leaning forward. No cough.",
    "Do you have a fever (either felt or measured with a thermometer)?",
    "Fièvre à 39 °C, café noir, naïve: accents and non-ASCII",
    "emoji 😷 and CJK 咳嗽 fall back to bytes",
    "  leading, trailing   and multiple   spaces  ",
    "tab\tand\nnewline",
    "N/V x2d, h/o DVT, c/o DOE & PND; 7/10 pain R flank",
    "I have no numbness or tingling anywhere",
    "The patient is a 45 y/o woman who reports a sore throat, a runny nose, a dry cough and "
    "muscle aches for three days; she has no shortness of breath and her vaccinations are up to date.",
]

cache = Path(tempfile.mkdtemp())
(cache / "tokenizers").mkdir()
shutil.copy(Path(wordllama.__file__).parent / "tokenizers" / "l2_supercat_tokenizer_config.json", cache / "tokenizers")
wl256 = WordLlama.load(dim=256, cache_dir=cache, disable_download=True)
wl64 = WordLlama.load(dim=256, trunc_dim=64, cache_dir=cache, disable_download=True)
v256 = wl256.embed(PHRASES, norm=True)
v64 = wl64.embed(PHRASES, norm=True)
cases = [
    {
        "text": t,
        # encode_batch pads to the longest text; the mask drops the padding, so do we.
        "ids": [i for i, m in zip(e.ids, e.attention_mask) if m],
        "v256": [round(float(x), 7) for x in a],
        "v64": [round(float(x), 7) for x in b],
    }
    for t, e, a, b in zip(PHRASES, wl256.tokenize(PHRASES), v256, v64)
]
print(json.dumps({"source": f"wordllama {wordllama.__version__} (PyPI), WordLlama.load(dim=256[, trunc_dim=64]).embed(texts, norm=True)", "cases": cases}, ensure_ascii=False))
