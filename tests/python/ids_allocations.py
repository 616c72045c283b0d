"""edgemt.Translator.translate_ids allocates nothing per sequence: run under the
LD_PRELOAD allocation counter (tests/cli/malloc_count.cc), after warm-up calls a call of
40 sequences makes exactly as many C allocator calls as a call of 4 (what a call costs
whatever its size: pybind11's dispatch, the options object), for greedy and beam search,
repeated, permuted and chunked sequences. The lists it returns come from Python's own
small-object allocator (outputs here stay within 64 ids; a longer list's items are a malloc of Python's).
    LD_PRELOAD=libedgemt_malloc_count.so PYTHONPATH=<build>/python python3 ids_allocations.py MODEL REFERENCE"""
import ctypes
import json
import sys

import edgemt


def main(model_path, reference_path):
    try:
        count = ctypes.CDLL(None).edgemt_malloc_count
    except AttributeError:
        sys.exit("the allocation counter is not preloaded (LD_PRELOAD=libedgemt_malloc_count.so)")
    count.restype = ctypes.c_long
    src = json.load(open(reference_path))["src_ids"]
    # 4 sequences, and 40 of every length (some repeated back to back, the longest chunked
    # by max_input_length 48), each made before counting.
    small = [src[i] for i in (3, 11, 8, 18)]
    large = [src[(7 * i) % len(src)] for i in range(30)] + [src[5]] * 4 + list(reversed(src[:6]))
    assert len(large) == 40
    failures = []
    for threads in (1, 2):
        tr = edgemt.Translator(model_path, max_batch=4, max_beam=4, max_input_length=48,
                               intra_threads=threads)
        for beam in (1, 4):
            kw = dict(beam_size=beam, max_decoding_length=20)
            for _ in range(3):  # the buffers grow to the largest call
                tr.translate_ids(large, **kw)
                tr.translate_ids(small, **kw)
            want_small, want_large = tr.translate_ids(small, **kw), tr.translate_ids(large, **kw)
            calls = 20
            before = count()
            for _ in range(calls):
                out_small = tr.translate_ids(small, **kw)
            mid = count()
            for _ in range(calls):
                out_large = tr.translate_ids(large, **kw)
            after = count()
            assert out_small == want_small and out_large == want_large, "results changed between calls"
            # Up to 3 chunks of at most 20 ids: every list within the 64 ids Python's
            # small-object allocator holds (a longer list's items are a malloc of Python's).
            assert len(out_large) == 40 and all(len(h) <= 64 for h in out_large)
            per_small, per_large = (mid - before) / calls, (after - mid) / calls
            print(f"threads {threads}, beam {beam}: {per_small:.1f} allocator calls per call of 4 sequences, "
                  f"{per_large:.1f} per call of 40")
            if per_large > per_small + 0.5:
                failures.append(f"threads {threads} beam {beam}: {per_large - per_small:.1f} more allocator "
                                f"calls for 36 more sequences")
    if count() < 10:
        sys.exit("the counter saw almost nothing: it is not counting")
    if failures:
        sys.exit("translate_ids allocates per sequence:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
