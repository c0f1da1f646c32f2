#!/usr/bin/env python3
"""crmath_tables.py: the tables of wherec/crmath.h (log, tanh, erf), computed with
mpmath at 300 bits, and the error bounds of log and erf that depend on them
(per table interval; crmath.h quotes the maxima). Prints the C initializers.
usage: python3 tests/runtime/crmath_tables.py {log|tanh|erf|bounds}"""
import struct
import sys

import mpmath

mpmath.mp.prec = 300
U = mpmath.mpf(2) ** -53


def f32(u):
    return struct.unpack("<f", struct.pack("<I", u))[0]


def to_f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def rn_bits(x, bits):
    """x rounded to nearest with `bits` significant bits"""
    if x == 0:
        return mpmath.mpf(0)
    m, e = mpmath.frexp(x)
    return mpmath.ldexp(mpmath.nint(mpmath.ldexp(m, bits)), e - bits)


def rn_quantum(x, q):
    """x rounded to a multiple of 2^q"""
    return mpmath.nint(mpmath.ldexp(x, -q)) * mpmath.mpf(2) ** q


def d(x):
    return float(x).hex()


# ---- log: z in [OFF, 2 OFF), 128 intervals of 2^16 float bit patterns ----------
LOG_OFF = 0x3F328000


def log_rows():
    rows = []
    for i in range(128):
        lo, hi = LOG_OFF + (i << 16), LOG_OFF + ((i + 1) << 16) - 1
        zl, zh = f32(lo), f32(hi)
        central = zl <= 1.0 <= zh
        invc = 1.0 if central else to_f32(1.0 / (0.5 * (zl + zh)))  # 24 bits
        lc = -mpmath.log(mpmath.mpf(invc))
        h = rn_quantum(lc, -45)
        rows.append((invc, h, mpmath.mpf(float(lc - h)), zl, zh, central))
    return rows


def log_bound():
    """relative error bound of wc_log_odd_ for k = 0 (k != 0: |log x| > 0.33)"""
    worst, at = 0, None
    for i, (invc, h, l, zl, zh, central) in enumerate(log_rows()):
        rmax = max(abs(zl * invc - 1), abs(zh * invc - 1))  # exact in double
        tmax = rmax**2 / 2 * (1 + 2 * rmax / 3)
        trunc = rmax**9 / 9 / (1 - rmax)
        if central:  # relative to |log1p(r)| >= |r| (1 - |r|/2)
            rel = (3.04 * U * tmax + trunc) / (rmax * (1 - rmax / 2))
        else:
            logmin = min(abs(mpmath.log(zl)), abs(mpmath.log(zh)))
            rel = (3.04 * U * tmax + trunc + 2 * U * (tmax + 2**-40) + mpmath.mpf(2) ** -93) / logmin
        if rel > worst:
            worst, at = rel, i
    return worst, at


# ---- tanh: tanh(i/32), i = 0 .. 291, hi of 26 bits ------------------------------
def tanh_rows():
    out = []
    for i in range(292):
        t = mpmath.tanh(mpmath.mpf(i) / 32)
        h = rn_bits(t, 26)
        out.append((h, rn_bits(t - h, 53)))
    return out


# ---- erf: erf(i/32) and 2/sqrt(pi) exp(-(i/32)^2), i = 0 .. 127 ---------------
ERF_N = 8  # Taylor terms of G kept: n = 1 .. 8


def hermite(n, c):
    h0, h1 = mpmath.mpf(1), 2 * c
    if n == 0:
        return h0
    for k in range(1, n):
        h0, h1 = h1, 2 * c * h1 - 2 * k * h0
    return h1


def erf_rows():
    out = []
    for i in range(128):
        c = mpmath.mpf(i) / 32
        e = 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-c * c)
        s = mpmath.erf(c)
        sh, eh = rn_bits(s, 53), rn_bits(e, 29)
        out.append((sh, rn_bits(s - sh, 53), eh, rn_bits(e - eh, 53)))
    return out


def erf_bound():
    """relative error bound of wc_erf_odd_, the maximum over the 128 intervals"""
    worst, at = 0, None
    dm = mpmath.mpf(1) / 64
    gamma = 40 * U / (1 - 40 * U)  # every rounding of g1's at most 40 operations
    for i in range(128):
        c = mpmath.mpf(i) / 32
        e = 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-c * c)
        # truncation of G after n = ERF_N
        trunc = sum(abs(hermite(n, c)) * dm**n / mpmath.factorial(n + 1) for n in range(ERF_N + 1, 60))
        # g1 evaluated with absolute values: coefficients by the recurrence, then Horner
        a = [mpmath.mpf(1), c]
        for n in range(1, ERF_N):
            a.append(mpmath.mpf(2) / (n + 2) * c * a[n] + mpmath.mpf(2 * n) / ((n + 1) * (n + 2)) * a[n - 1])
        g_abs = sum(a[n] * dm**n for n in range(1, ERF_N + 1))
        r_abs = sum(a[n] * dm ** (n - 2) for n in range(2, ERF_N + 1))  # g1 = d (a1 + d R)
        # the two outer operations of Horner round once each (a1 = -c is exact), the rest
        # (R's coefficients by the recurrence and its Horner steps) within gamma
        err_g = 2 * U * g_abs + dm**2 * r_abs * (U + gamma) + trunc  # |computed g1 - (G - 1)|
        # absolute error, in units of E*|d|: g1's, the rounding of (s1 + s2) * g1 (2u |g1|),
        # the three sums of low (3u |low|, |low| <= 2^-27.5 erf + E d |g1|), s2 and the tables
        ed = e * dm
        lo = max(c - dm, mpmath.mpf(2) ** -149) if i > 0 else None
        if i == 0:  # everything scales with a: relative to erf(a) >= E a (1 - a^2/3)
            rel = (err_g + 2 * U * g_abs + 3 * U * (g_abs + 2**-27)) / (1 - dm**2 / 3) + 2**-80
        else:
            ref = mpmath.erf(lo)
            rel = (ed * (err_g + 2 * U * g_abs + 3 * U * g_abs) + 3 * U * 2**-27.5 * ref +
                   ed * 2**-80 + ref * 2**-104) / ref
        if rel > worst:
            worst, at = rel, i
    return worst, at


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "bounds"
    if what == "log":
        for invc, h, l, *_ in log_rows():
            print("    %s, %s, %s," % (d(invc), d(h), d(l)))
    elif what == "tanh":
        rows = ["%s, %s," % (d(h), d(l)) for h, l in tanh_rows()]
        for k in range(0, len(rows), 2):
            print("    " + " ".join(rows[k:k + 2]))
    elif what == "erf":
        for sh, sl, eh, el in erf_rows():
            print("    %s, %s, %s, %s," % (d(sh), d(sl), d(eh), d(el)))
    else:
        b, i = log_bound()
        print("log: B = 2^%.2f (interval %d)" % (float(mpmath.log(b, 2)), i))
        b, i = erf_bound()
        print("erf: B = 2^%.2f (interval %d)" % (float(mpmath.log(b, 2)), i))


if __name__ == "__main__":
    main()
