#!/usr/bin/env python3
"""Coefficients of the exact gelu's erfc in ops/common/simd.h (k_erfc).

    erfc(z) = t * exp(-z^2 + P(t)),  t = 1 / (1 + z / 2),  z >= 0

P is a polynomial of degree N in t, fitted here (least squares on Chebyshev nodes of
t in (0, 1], then checked on a dense grid) to log(erfcx(z) / t), where erfcx(z) =
exp(z^2) erfc(z) is scipy's scaled complementary error function. The error of P is the
relative error of erfc. Prints the coefficients (highest degree first) and the largest
relative error in float64. Needs numpy and scipy (tools only).

    python3 tools/ops/fit_erfc.py [N]
"""
import sys

import numpy as np
from scipy.special import erfcx


def target(t):
    z = 2.0 * (1.0 / t - 1.0)
    return np.log(erfcx(z) / t)


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 9
    k = np.arange(4000)
    t = 0.5 + 0.5 * np.cos(np.pi * (k + 0.5) / len(k))  # Chebyshev nodes in (0, 1)
    coef = np.polyfit(t, target(t), n)
    grid = np.linspace(1e-6, 1.0, 2_000_001)
    err = np.abs(np.polyval(coef, grid) - target(grid))
    for c in coef:
        print(f"{c:.9e}f")
    print(f"degree {n}: max relative error of erfc {np.expm1(err.max()):.3e}", file=sys.stderr)


if __name__ == "__main__":
    main()
