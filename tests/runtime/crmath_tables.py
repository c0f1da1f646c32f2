#!/usr/bin/env python3
"""crmath_tables.py: the tables of the correctly rounded functions, computed with
mpmath (300 bits; 1400 for 2/pi), and the error bounds that depend on them (per
table interval; the headers quote the maxima):
  log tanh erf  wherec/crmath.h's tables (erf: and the raw form's polynomials)
  trig          wherec/trig.h's 2/pi rows (Payne-Hanek) and sin, cos of j pi/128
  atan          wherec/inverse_trig.h's atan(i/64) and pi/2 - atan(i/64), and the
                raw form's degree-10 R
  asin          inverse_trig.h's degree-13 G (interpolation at Chebyshev nodes), and
                the raw form's degree-11 R
  hyp           wherec/hyperbolic.h's raw form's C and S (cosh r, sinh r), and
                inverse_hyperbolic.h's raw forms' P (atanh s)
  gelu          wherec/gelu.h's h(i/16) and h'(i/16), h(a) = Phi(-a) e^(a^2/2)
  gelu_fit      the raw form's rational P/D of h (GELU_RAW_P, GELU_RAW_D), fitted again
  bounds        B of log, erf and the inverse hyperbolic functions' log of a
                pair; G's approximation error on 20001 points; gelu's h and P/D; the
                raw forms of erf, atan, asin, acos, sinh, cosh, asinh, acosh and atanh
  check         every table and G regenerated and compared with the headers'
                numbers (exit 1 on a difference): the ctest crmath_tables_match_headers
Prints the C initializers.
usage: python3 tests/runtime/crmath_tables.py {log|tanh|erf|trig|atan|asin|hyp|gelu|gelu_fit|bounds|check}"""
import os
import re
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


def log_terms(invc, zl, zh, slack=0):
    """on an interval [zl, zh] of the log table: the largest |r| = |z invc - 1| (plus
    slack), the bound of the series' terms past r, and the truncation after r^8"""
    rmax = max(abs(zl * invc - 1), abs(zh * invc - 1)) + slack  # exact in double
    return rmax, rmax**2 / 2 * (1 + 2 * rmax / 3), rmax**9 / 9 / (1 - rmax)


def log_bound():
    """relative error bound of wc_log_odd_ for k = 0 (k != 0: |log x| > 0.33)"""
    worst, at = 0, None
    for i, (invc, h, l, zl, zh, central) in enumerate(log_rows()):
        rmax, tmax, trunc = log_terms(invc, zl, zh)
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


def pair(v):
    """v as a double and the double nearest the rest"""
    h = rn_bits(v, 53)
    return h, rn_bits(v - h, 53)


def erf_rows():
    out = []
    for i in range(128):
        c = mpmath.mpf(i) / 32
        e = 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-c * c)
        eh = rn_bits(e, 29)
        out.append(pair(mpmath.erf(c)) + (eh, rn_bits(e - eh, 53)))
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


# ---- erf's raw form: a P(a^2) below 1, 1 - e^(-a^2) Q(s) above, plain double -------
ERF_RAW_TOP = mpmath.mpf(f32(0x407CCCCD))  # 3.95f, the clamp
ERF_RAW_H = mpmath.log(2) / 2 * (1 + mpmath.mpf(2) ** -20)  # |r| of e^r


def cheb_fit(f, lo, hi, n):
    """f interpolated at the n + 1 Chebyshev nodes of [lo, hi], monomial coefficients in
    the variable itself rounded to doubles (200 bits on the way)"""
    with mpmath.workprec(200):
        c, h = (lo + hi) / 2, (hi - lo) / 2
        nodes = [c + h * mpmath.cos(mpmath.pi * (k + mpmath.mpf(1) / 2) / (n + 1)) for k in range(n + 1)]
        a = mpmath.matrix([[x**j for j in range(n + 1)] for x in nodes])
        co = mpmath.lu_solve(a, mpmath.matrix([f(x) for x in nodes]))
        return [rn_bits(co[j], 53) for j in range(n + 1)]


def erf_raw_p(z):
    """erf(a)/a, z = a^2"""
    if z == 0:
        return 2 / mpmath.sqrt(mpmath.pi)
    a = mpmath.sqrt(z)
    return mpmath.erf(a) / a


def erf_raw_q(a):
    """Q = e^(a^2) erfc(a)"""
    return mpmath.exp(a * a) * mpmath.erfc(a)


def erf_raw_c():
    """C: s = (a - C)/(a + 2) runs over [-w, w] as a runs over [1, 3.95]"""
    return rn_bits((ERF_RAW_TOP * 3 + ERF_RAW_TOP + 2) / (3 + ERF_RAW_TOP + 2), 53)


def erf_raw_coefficients():
    """P of degree 10 on z in [0, 1], Q of degree 12 in s, e^r of degree 10 on |r| <= H"""
    c = erf_raw_c()
    a_of = lambda s: (c + 2 * s) / (1 - s)
    p = cheb_fit(erf_raw_p, mpmath.mpf(0), mpmath.mpf(1), 10)
    q = cheb_fit(lambda s: erf_raw_q(a_of(s)), (1 - c) / 3, (ERF_RAW_TOP - c) / (ERF_RAW_TOP + 2), 12)
    e = cheb_fit(mpmath.exp, -ERF_RAW_H, ERF_RAW_H, 10)
    return p, q, e


def horner_bound(cs, v):
    """(value, error bound) of Horner's scheme at v, each product and sum rounded"""
    h, err = cs[-1], mpmath.mpf(0)
    for c in reversed(cs[:-1]):
        pr = v * h
        h = c + pr
        err = abs(v) * err + U * (abs(pr) + abs(h))
    return h, err


def erf_raw_bound(points=3000):
    """relative error bounds of wc_erf_raw_f32's y: below 1 and from 1 to 3.95, on grids
    of the variable (z, s, r): truncation against the function, Horner's roundings
    (pointwise magnitudes), s's two roundings through Q', e^r's argument, the scaling
    (exact), e q and 1 - e q"""
    pc, qc, ec = erf_raw_coefficients()
    c = erf_raw_c()
    small = mpmath.mpf(0)
    for k in range(points + 1):
        z = mpmath.mpf(k) / points
        v, err = horner_bound(pc, z)
        f = erf_raw_p(z)
        small = max(small, (abs(v - f) + err) / f + U * (1 + 2**-40))
    rel_e = mpmath.mpf(0)
    for k in range(points + 1):
        r = -ERF_RAW_H + 2 * ERF_RAW_H * k / points
        v, err = horner_bound(ec, r)
        rel_e = max(rel_e, (abs(v - mpmath.exp(r)) + err) / mpmath.exp(r))
    # r = (-k L1 - z) exactly (k L1 exact, the difference a multiple of 2^-46 below 1/2),
    # then + k (ln2 - L1) rounded: u |r| + u 23 2^-49 + 23 2^-102
    rel_e = (rel_e + U * ERF_RAW_H * 1.5 + 2**-90) * (1 + 2**-40)
    big = mpmath.mpf(0)
    dq = [k * qc[k] for k in range(1, len(qc))]
    for k in range(points + 1):
        a = 1 + (ERF_RAW_TOP - 1) * k / points
        s = (a - c) / (a + 2)
        v, err = horner_bound(qc, s)
        q = erf_raw_q(a)
        ds = abs(horner_bound(dq, s)[0] * s) * 2.01 * U  # s's two roundings
        rel_q = (abs(v - q) + err + ds) / q
        ec_ = mpmath.erfc(a)
        y = 1 - ec_
        big = max(big, (ec_ * (rel_e + rel_q + U) * (1 + 2**-40) + U * y) / y)
    return small, big, rel_e


def erf_raw_taylor_bound(n_kept=6):
    """relative error bound of wc_erf_raw_f32 where gcc has no FMA: the exact form's
    Taylor series at i/32 kept to n = n_kept, in plain double: y = SH + (ed + ed g1), ed =
    RN(EH + EL) d; the maximum over the 128 intervals"""
    worst, at = 0, None
    dm = mpmath.mpf(1) / 64
    gamma = 40 * U / (1 - 40 * U)
    for i in range(128):
        c = mpmath.mpf(i) / 32
        e = 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-c * c)
        trunc = sum(abs(hermite(n, c)) * dm**n / mpmath.factorial(n + 1) for n in range(n_kept + 1, 60))
        a = [mpmath.mpf(1), c]
        for n in range(1, n_kept):
            a.append(mpmath.mpf(2) / (n + 2) * c * a[n] + mpmath.mpf(2 * n) / ((n + 1) * (n + 2)) * a[n - 1])
        g_abs = sum(a[n] * dm**n for n in range(1, n_kept + 1))
        r_abs = sum(a[n] * dm ** (n - 2) for n in range(2, n_kept + 1))
        err_g = 2 * U * g_abs + dm**2 * r_abs * (U + gamma) + trunc
        # in units of E |d|: g1's error, E's sum and ed's product (2u (1 + g)), ed g1 (u g),
        # the sum ed + ed g1 (u (1 + g)); then SH (u erf(c)) and the last sum (u y)
        unit = err_g + 2 * U * (1 + g_abs) + U * g_abs + U * (1 + g_abs) + 2**-100
        if i == 0:  # SH = 0: everything scales with a, erf(a) >= E a (1 - a^2/3)
            rel = unit * (1 + 2**-40) / (1 - dm**2 / 3) + U * (1 + 2**-40)
        else:
            lo = c - dm
            ref = mpmath.erf(lo)
            rel = (e * dm * unit * (1 + 2**-40) + U * mpmath.erf(c) + U * mpmath.erf(c + dm)) / ref
        if rel > worst:
            worst, at = rel, i
    return worst, at


# ---- trig: (2^s 2/pi) mod 4 with 158 fraction bits, rows E = 110 .. 254 ---------
def trig_2opi_rows():
    """per biased exponent E, floor(2/pi 2^(E + 8)) mod 2^160 as 5 limbs of 32 bits"""
    with mpmath.workprec(1400):
        two_over_pi = 2 / mpmath.pi
        rows = []
        for e in range(110, 255):
            z = int(mpmath.floor(mpmath.ldexp(two_over_pi, e + 8))) % (1 << 160)
            rows.append([(z >> (32 * (4 - i))) & 0xFFFFFFFF for i in range(5)])
    return rows


def rz_bits(x, bits):
    """x rounded toward zero to `bits` significant bits"""
    if x == 0:
        return mpmath.mpf(0)
    m, e = mpmath.frexp(abs(x))
    return mpmath.sign(x) * mpmath.ldexp(mpmath.floor(mpmath.ldexp(m, bits)), e - bits)


def trig_rows():
    """sin and cos of j pi/128, j = 0 .. 63: a 26-bit high part (truncated) and a double"""
    out = []
    for j in range(64):
        row = []
        for v in (mpmath.sin(j * mpmath.pi / 128), mpmath.cos(j * mpmath.pi / 128)):
            h = rz_bits(v, 26)
            row += [h, rn_bits(v - h, 53)]
        out.append(row)
    return out


# ---- atan: atan(i/64) and pi/2 - atan(i/64), i = 0 .. 64, as pairs of doubles --------
def atan_rows():
    return [pair(mpmath.pi / 2 - mpmath.atan(mpmath.mpf(i) / 64) if big else
                 mpmath.atan(mpmath.mpf(i) / 64)) for big in (0, 1) for i in range(65)]


# ---- asin: asin(s) = s (1 + z (c0 + z (c1 + z G(z)))), z = s^2 in [0, 1/4] ----------
ASIN_L, ASIN_N = mpmath.mpf(1) / 4, 14  # G of degree 13 through 14 nodes


def asin_g_exact(z):
    """G = ((E/z - c0)/z - c1)/z, E = asin(s)/s - 1, c0 = 1/6, c1 = 3/40"""
    s = mpmath.sqrt(z)
    e = mpmath.asin(s) / s - 1
    return ((e / z - mpmath.mpf(1) / 6) / z - mpmath.mpf(3) / 40) / z


def asin_coefficients():
    return cheb_fit(asin_g_exact, mpmath.mpf(0), ASIN_L, ASIN_N - 1)


def asin_error(points=20000):
    """max |z^3 (G*(z) - G(z))| on z = k/4/points, k = 1 .. points: G* the exact G,
    G the polynomial with double coefficients (z = 0: both terms vanish)"""
    cs = asin_coefficients()
    worst = mpmath.mpf(0)
    with mpmath.workprec(200):
        for k in range(1, points + 1):
            z = ASIN_L * k / points
            g = mpmath.mpf(0)
            for c in reversed(cs):
                g = g * z + c
            worst = max(worst, abs(z**3 * (asin_g_exact(z) - g)))
    return worst


# ---- asin's raw form: asin(s) = s (1 + z R(z)), z = s^2 in [0, 1/4], plain double --
ASIN_RAW_N = 12  # R of degree 11 through 12 nodes


def asin_raw_r(z):
    """R* = (asin(s)/s - 1)/z, s = sqrt(z); 1/6 at 0"""
    if z == 0:
        return mpmath.mpf(1) / 6
    s = mpmath.sqrt(z)
    return (mpmath.asin(s) / s - 1) / z


def asin_raw_coefficients():
    return cheb_fit(asin_raw_r, mpmath.mpf(0), ASIN_L, ASIN_RAW_N - 1)


def asin_raw_bound(points=4000):
    """relative error bounds of wc_atrig_raw_'s A = s + s (z R(z)) with s exact (a)
    and with s = the Newton square root (eps_s), on z = k/4/points: R's
    truncation against R*, Horner's roundings (each product and sum, pointwise
    magnitudes), q = z r, s q and the last sum each rounded"""
    cs = asin_raw_coefficients()
    # sqrt(t): y0 within 0.034365, three Newton steps (e -> 3/2 e^2 + e^3/2 + 3.2 u),
    # s0 = t y (u), s = s0 + (t - s0^2) y/2: 1.5 u + e^2/2 + 2 e e3
    e = mpmath.mpf("0.034365")
    for _ in range(3):
        e = mpmath.mpf(3) / 2 * e**2 + e**3 / 2 + 3.2 * U
    e0 = e + U * (1 + e)
    eps_s = U + U / 2 * (1 + e0) ** 2 * (1 + e) + e0**2 / 2 + 2 * e0 * e
    worst = mpmath.mpf(0)
    for k in range(points + 1):
        z = ASIN_L * k / points
        h, err = cs[-1], mpmath.mpf(0)
        for c in reversed(cs[:-1]):
            p = z * h
            h = c + p
            err = z * err + U * (abs(p) + abs(h))
        ez = z * asin_raw_r(z)
        d1 = z * (err + abs(h - asin_raw_r(z))) + U * (ez + z * err)
        rel = (d1 + U * (ez + d1)) / (1 + ez) + U * (1 + d1)
        worst = max(worst, rel)
    pi2 = mpmath.pi / 2
    c_err = abs(pi2 - mpmath.mpf(float(pi2)))
    big = worst + eps_s * (1 + worst)
    asin_b = max(worst, 2 * big + c_err / (mpmath.pi / 6) + U)
    acos_b = max(worst / 2 + c_err / (mpmath.pi / 3) + U, big,
                 big / 2 + 2 * c_err / (2 * mpmath.pi / 3) + U)
    return worst, eps_s, asin_b, acos_b


# ---- atan's raw form: atan(t) = t R(t^2), |t| <= tan(pi/8), plain double ---------------
ATAN_RAW_L = mpmath.tan(mpmath.pi / 8) ** 2 * (1 + mpmath.mpf(2) ** -20)


def atan_raw_r(z):
    """R* = atan(s)/s, s = sqrt(z)"""
    if z == 0:
        return mpmath.mpf(1)
    s = mpmath.sqrt(z)
    return mpmath.atan(s) / s


def atan_raw_coefficients():
    return cheb_fit(atan_raw_r, mpmath.mpf(0), ATAN_RAW_L, 10)


def atan_raw_bound(points=2000):
    """relative error bound of wc_atan_raw_f32: t = RN(num/den) (u), z = RN(t^2) (2u
    through z R'/R), R's truncation and Horner's roundings (pointwise), A = RN(t r); then
    f = K + mu A (the sum rounded once; K's double within 2^-53.86 of pi/2, half that of
    pi/4): |A| <= f when K = pi/4, 3 |A| <= f when K = pi/2"""
    cs = atan_raw_coefficients()
    dcs = [k * cs[k] for k in range(1, len(cs))]
    worst = mpmath.mpf(0)
    for k in range(points + 1):
        z = ATAN_RAW_L * k / points
        v, err = horner_bound(cs, z)
        r = atan_raw_r(z)
        dz = abs(horner_bound(dcs, z)[0]) * z * 2.01 * U
        worst = max(worst, (abs(v - r) + err + dz) / r)
    rel_a = (worst + 2 * U) * (1 + 2**-40)  # and t's rounding, the product's
    pi2 = mpmath.pi / 2
    c_err = abs(pi2 - mpmath.mpf(float(pi2)))
    return max(rel_a, rel_a + c_err / 2 / (mpmath.pi / 8) + U,
               rel_a / 3 + c_err / (3 * mpmath.pi / 8) + U), worst


# ---- sinh's and cosh's raw form: e^r = C + S without a table, |r| <= ln2/2 ----------
HYP_RAW_H = mpmath.log(2) / 2 * (1 + mpmath.mpf(2) ** -40)  # |r| (k the integer nearest a/ln2)


def hyp_raw_c(z):
    """C* = (cosh(s) - 1)/z, s = sqrt(z); 1/2 at 0"""
    if z == 0:
        return mpmath.mpf(1) / 2
    return (mpmath.cosh(mpmath.sqrt(z)) - 1) / z


def hyp_raw_s(z):
    """S* = (sinh(s)/s - 1)/z, s = sqrt(z); 1/6 at 0"""
    if z == 0:
        return mpmath.mpf(1) / 6
    s = mpmath.sqrt(z)
    return (mpmath.sinh(s) / s - 1) / z


def hyp_raw_coefficients():
    """C and S of degree 4 on z in [0, H^2]: cosh r = 1 + z C(z), sinh r = r + r z S(z)"""
    l = HYP_RAW_H**2
    return cheb_fit(hyp_raw_c, mpmath.mpf(0), l, 4), cheb_fit(hyp_raw_s, mpmath.mpf(0), l, 4)


def hyp_raw_bound(points=2000):
    """relative error bounds of wc_hyp_raw_'s sinh and cosh on r in [-H, H]: z = RN(r^2);
    c = 1 + z C(z) and s = r + (r z) S(z), C's and S's truncation against C*, S* and
    Horner's roundings (pointwise magnitudes), z's rounding through c' and (z S)', the
    products and sums each rounded; e^r = c + s and e^-r = c - s (rounded), r's error (u
    |r| + 2^-94, none when k = 0: r = a); scaled by 2^(k-1), 2^(-k-1) (exact);
    cosh = the sum (rounded); sinh = s when k = 0, else the difference (rounded), whose
    terms' errors count coth(a) <= coth(ln2/2 (1 - 2^-43)) <= 3 (1 + 2^-40) times"""
    cc, sc = hyp_raw_coefficients()
    dcc = [k * cc[k] for k in range(1, len(cc))]
    dsc = [k * sc[k] for k in range(1, len(sc))]
    rel_e, rel_s0 = mpmath.mpf(0), mpmath.mpf(0)
    for k in range(points + 1):
        r = -HYP_RAW_H + 2 * HYP_RAW_H * k / points
        z = r * r
        q, eq = horner_bound(cc, z)
        c = 1 + z * q
        ec = z * (abs(q - hyp_raw_c(z)) + eq) + U * (z * abs(q) + c)
        ec += U * z * abs(q + z * horner_bound(dcc, z)[0])  # z's rounding: (z C)' u z
        p, ep = horner_bound(sc, z)
        rz = abs(r) * z
        s = r + r * z * p
        es = rz * (abs(p - hyp_raw_s(z)) + ep) + U * (3.01 * rz * abs(p) + abs(s))
        es += U * rz * abs(horner_bound(dsc, z)[0]) * z  # z's rounding in S
        er = mpmath.exp(r)
        dr = U * abs(r) + 2**-94
        rel_p = ((ec + es) / er + U) * (1 + 2**-40) + dr
        rel_m = ((ec + es) / (1 / er) + U) * (1 + 2**-40) + dr
        rel_e = max(rel_e, rel_p, rel_m)
        if r != 0:
            rel_s0 = max(rel_s0, es / abs(mpmath.sinh(r)))
    cosh_b = rel_e * (1 + 2**-40) + U
    sinh_b = max(rel_s0, 3 * (1 + 2**-40) * rel_e + U)
    return sinh_b, cosh_b, rel_e, rel_s0


# ---- the inverse hyperbolic functions' raw forms: k ln2 + 2 atanh(s), |s| <= 0.2007 --
AHYP_RAW_S = mpmath.mpf("0.2007")  # |s|: 0.1716 (1 + 2^-50) for asinh, acosh; 0.2005 for atanh


def ahyp_raw_p(z):
    """P* = (atanh(s)/s - 1)/z, s = sqrt(z); 1/3 at 0"""
    if z == 0:
        return mpmath.mpf(1) / 3
    s = mpmath.sqrt(z)
    return (mpmath.atanh(s) / s - 1) / z


def ahyp_raw_coefficients():
    return cheb_fit(ahyp_raw_p, mpmath.mpf(0), AHYP_RAW_S**2, 7)


def ahyp_raw_bound(points=2000):
    """relative error bounds of the raw forms of asinh, acosh and atanh (inverse_hyperbolic.h):
    A = s + (s z) P(z) with s exact on z = s^2 in [0, 0.2007^2] (P's truncation and
    Horner's roundings at pointwise magnitudes, z's rounding through (z P)', s z, the
    product and the sum rounded): rel_a; an error e of s counts m = max s atanh'(s)/atanh(s)
    times in A. The square root (asin_raw_bound's steps): eps_q. Per case, k = 0 (y = 2A,
    or A for atanh: exact scalings) and k >= 1 (y = RN(RN(k ln2) + 2A), halved for atanh;
    log2 V >= k - 1/2 - g, g = 0 where k comes from V's bits, 0.0861 for atanh's from 1 + a
    and 1 - a: K/y <= 1/(1/2 - g), y >= (1/2 - g) ln2)"""
    cs = ahyp_raw_coefficients()
    dcs = [k * cs[k] for k in range(1, len(cs))]
    smax = AHYP_RAW_S
    rel_a = mpmath.mpf(0)
    for k in range(points + 1):
        z = smax**2 * k / points
        v, err = horner_bound(cs, z)
        f = ahyp_raw_p(z)
        s = mpmath.sqrt(z)
        zp = z * abs(v)
        d1 = z * (abs(v - f) + err) + U * (3.01 * zp + z * abs(horner_bound(dcs, z)[0]) * z)
        rel = (d1 + U * (1 + zp)) / (1 + z * f)
        rel_a = max(rel_a, rel)
    m = smax / ((1 - smax**2) * mpmath.atanh(smax))  # s atanh'(s)/atanh(s) grows with s
    m = max(m, mpmath.mpf(1))
    eps_q = asin_raw_bound(points=10)[1]
    ln2 = mpmath.log(2)
    c_err = abs(ln2 - mpmath.mpf(float(ln2))) / ln2
    a_max = mpmath.atanh(smax)

    def big(e_s_abs, g):
        """k >= 1: s within e_s_abs + 3u |s| (absolute), y = RN(K + 2A)"""
        d2a = 2 * (e_s_abs + 3 * U * smax) / (1 - smax**2) * (1 + 2**-40) + 2 * a_max * rel_a
        return (U + c_err) / (mpmath.mpf(1) / 2 - g) + d2a / ((mpmath.mpf(1) / 2 - g) * ln2) + U

    e_v = U + eps_q + U / 2  # V = RN(a + q), q from t = RN(a^2 + 1) (or x^2 - 1)
    asinh_b = max(rel_a + m * (eps_q + U / 2 + 2 * U), big(e_v / 2, 0))
    acosh_b = max(rel_a + m * (eps_q + U), big(e_v / 2, 0))
    atanh_b = max(rel_a, big(0, mpmath.mpf("0.0861")))
    return asinh_b, acosh_b, atanh_b, rel_a


# ---- the inverse hyperbolic functions: log of a double pair V (inverse_hyperbolic.h) -
def ahyp_bound(l_center, e_v):
    """relative error of wc_ahyp_log_ on crmath.h's log table, given the pair V's
    relative error e_v and the least log V on the interval around 1 (l_center)"""
    worst, at = 0, None
    e_r = mpmath.mpf(2) ** -102.0
    for i, (invc, h, l, zl, _, central) in enumerate(log_rows()):
        # V is a pair, so z runs to the next interval's start; r is rounded (2^-49)
        rmax, tmax, trunc = log_terms(invc, zl, f32(LOG_OFF + ((i + 1) << 16)), mpmath.mpf(2) ** -49)
        qmax = U * rmax * (1 + rmax)
        e_q = U * qmax + 2 * U * U * rmax**2 + U * rmax**3 * mpmath.mpf(1.01)
        base = 3.04 * U * tmax + trunc + e_q
        cands = []
        if central:  # k = 0 only, log V >= l_center
            cands.append((base + U * (tmax + qmax)) / (rmax - rmax**2 / 2) +
                         (e_r + e_v * (1 + rmax)) / l_center)
        else:
            for k1, tail, scale in ((0, 2**-54, 1.4), (1, 2**-46.5, 2.8)):
                if k1 == 0 and zl < 1:
                    continue
                sums = (U * (tmax + qmax) + U * (tmax + qmax + 2**-41) +
                        U * (tail + tmax + qmax + 2**-41))
                err = base + sums + mpmath.mpf(2) ** -92.9 + e_r + e_v * mpmath.mpf(scale)
                cands.append(err / (mpmath.log(zl) if k1 == 0 else mpmath.mpf("0.3325")))
        for rel in cands:
            if rel > worst:
                worst, at = rel, i
    return worst, at


AHYP = [("asinh", 2**-20.01, 2**-100.3), ("acosh", 2**-11.01, 2**-100.3),
        ("atanh", 2**-19.01, 2**-102.7)]


# ---- gelu: h(a) = Phi(-a) e^(a^2/2) and h'(a) at c = i/16, i = 0 .. 232 ----------
GELU_N = 10  # Taylor coefficients of h kept: b_0 .. b_10
GELU_TOP = mpmath.mpf(29) / 2  # a = |x| clamped to 14.5


def gelu_h(a):
    return mpmath.erfc(a / mpmath.sqrt(2)) / 2 * mpmath.exp(a * a / 2)


def gelu_coefficients(c, n):
    """b_k = h^(k)(c)/k!, k = 0 .. n: h' = c h - 1/sqrt(2 pi), then
    b_(k+1) = (c b_k + b_(k-1))/(k + 1)"""
    b = [gelu_h(c)]
    b.append(c * b[0] - 1 / mpmath.sqrt(2 * mpmath.pi))
    for k in range(1, n):
        b.append((c * b[k] + b[k - 1]) / (k + 1))
    return b


def gelu_rows():
    out = []
    for i in range(233):
        b = gelu_coefficients(mpmath.mpf(i) / 16, 1)
        b1h = rn_bits(b[1], 29)
        out.append(pair(b[0]) + (b1h, rn_bits(b[1] - b1h, 53)))
    return out


def gelu_bound():
    """relative error bound of wc_gelu_h_ (the pair H of h(a)), the maximum over the 233
    intervals: the truncation after b_10, the recurrence's and Horner's roundings, the
    sums of low, the tables' own errors"""
    worst, at = 0, None
    w = mpmath.mpf(1) / 32
    u2 = 2.01 * U
    for i, (b0h, b0l, b1h, b1l) in enumerate(gelu_rows()):
        c = mpmath.mpf(i) / 16
        b = gelu_coefficients(c, 60)
        trunc = sum(abs(b[n]) * w**n for n in range(GELU_N + 1, 60))
        # b2 = ((c b1h + b0h) + (c b1l + b0l))/2 (c b1h exact: 8 + 29 bits), then the
        # recurrence from it and RN(b1h + b1l): each step c b + b', times RN(1/(k + 1))
        e = [0, abs(b[1] - (b1h + b1l)) + U * abs(b[1])]
        s, t = c * b1h + b0h, c * b1l + b0l
        e.append((U * abs(s) + U * abs(c * b1l) + U * abs(t) + U * (abs(s) + abs(t)) +
                  c * abs(b[1] - b1h - b1l) + abs(b[0] - b0h - b0l)) / 2)
        for k in range(2, GELU_N):
            a = c * (abs(b[k]) + e[k]) + abs(b[k - 1]) + e[k - 1]
            e.append(mpmath.mpf(1) / (k + 1) * ((1 + U) ** 2 * (c * e[k] + e[k - 1] + u2 * a) + u2 * a))
        # Horner from b_10 down to b_2: P_k = b_k + d P_(k+1), |d| <= w
        big, err = abs(b[GELU_N]) + e[GELU_N], e[GELU_N]
        for k in range(GELU_N - 1, 1, -1):
            big = abs(b[k]) + e[k] + w * big
            err = e[k] + w * err + u2 * big
        # low = Se + (b0l + (b1l d + d^2 P)): three sums, d^2 P and b1l d rounded once each
        tail = w * w * big + abs(b1l) * w
        m = U * (abs(b[0]) + abs(b[1]) * w) + abs(b0l) + tail
        total = (trunc + w * w * (err + U * big) + U * abs(b1l) * w + 3 * U * m +
                 abs(b[0] - b0h - b0l) + w * abs(b[1] - b1h - b1l))
        lo = gelu_h(min(c + w, GELU_TOP))
        rel = total / lo
        if rel > worst:
            worst, at = rel, i
    return worst, at


# wc_gelu_raw_f32's h(a) = P(a)/D(a) on [0, 14.5], degree 8 over 9 (D's constant term 1):
# `gelu_fit` computes them again (Lawson's iteration, a few minutes)
GELU_RAW_P = [float.fromhex(v) for v in (
    "0x1.0000000000001p-1", "0x1.5fa01b0391e93p-1", "0x1.df3dc436ed5b9p-2", "0x1.9a410d8451cfbp-3",
    "0x1.dcc4990c09242p-5", "0x1.7f594cf2ad094p-7", "0x1.a0c57315714e3p-10", "0x1.199542273f161p-13",
    "0x1.6e734c82a30f1p-18")]
GELU_RAW_D = [float.fromhex(v) for v in (
    "0x1.0000000000000p+0", "0x1.15f1225119d22p+1", "0x1.15936dc10d328p+1", "0x1.4fa7a021102fdp+0",
    "0x1.0fc259ff8395ep-1", "0x1.32e0189200358p-3", "0x1.e5f888c6c8f91p-6", "0x1.0611d72e4f55cp-8",
    "0x1.60e9796810d5ep-12", "0x1.cb4706e1c0326p-17")]


def gelu_fit(n=8, m=9, points=400, rounds=40):
    """P of degree n and D of degree m (D(0) = 1) minimizing max |P/(D h) - 1| on [0, 14.5]:
    Lawson's iteration (weighted least squares on Chebyshev points, the weights scaled by
    the errors), the best round's coefficients rounded to double"""
    old = mpmath.mp.prec
    mpmath.mp.prec = 120
    try:
        pts = [GELU_TOP / 2 * (1 - mpmath.cos(mpmath.pi * (i + mpmath.mpf(1) / 2) / points))
               for i in range(points)]
        hv = [gelu_h(a) for a in pts]
        w = [mpmath.mpf(1)] * points
        best = None
        for _ in range(rounds):
            A, b = mpmath.matrix(points, n + 1 + m), mpmath.matrix(points, 1)
            for i, (a, h) in enumerate(zip(pts, hv)):
                s = mpmath.sqrt(w[i])
                for j in range(n + 1):
                    A[i, j] = s * a**j / h
                for j in range(1, m + 1):
                    A[i, n + j] = -s * a**j
                b[i] = s
            x, _res = mpmath.qr_solve(A, b)
            p = [x[j] for j in range(n + 1)]
            q = [mpmath.mpf(1)] + [x[n + j] for j in range(1, m + 1)]
            err = [abs(mpmath.polyval(p[::-1], a) / mpmath.polyval(q[::-1], a) / h - 1)
                   for a, h in zip(pts, hv)]
            if best is None or max(err) < best[0]:
                best = (max(err), p, q)
            tot = sum(wi * ei for wi, ei in zip(w, err))
            w = [wi * ei / tot * points for wi, ei in zip(w, err)]
    finally:
        mpmath.mp.prec = old
    return [float(c) for c in best[1]], [float(c) for c in best[2]]


def poly_taylor(coeffs, c):
    """the Taylor coefficients at c of the polynomial sum coeffs[k] a^k (exact)"""
    cs = [mpmath.mpf(v) for v in coeffs]
    out = []
    for k in range(len(cs)):
        out.append(sum(mpmath.binomial(j, k) * cs[j] * c ** (j - k) for j in range(k, len(cs))))
    return out


def gelu_raw_bound():
    """relative error bound of wc_gelu_raw_f32's rational h: |P/D - h| <= sum_k |r_k - b_k|
    w^k on [c - w, c + w], c = (i + 1/2)/128, w = 1/256 (1856 intervals covering [0, 14.5]),
    r_k the Taylor coefficients of P/D at c (the double coefficients, exact series
    division), b_k h's (its recurrence), 40 terms (D's roots are 2.5 or more away from
    [0, 14.5], so the rest is below 2^-300), over h(c + w) (h decreases)"""
    worst, at = 0, None
    w = mpmath.mpf(1) / 256
    terms = 40
    for i in range(1856):
        c = (i + mpmath.mpf(1) / 2) / 128
        p = poly_taylor(GELU_RAW_P, c) + [mpmath.mpf(0)] * terms
        q = poly_taylor(GELU_RAW_D, c) + [mpmath.mpf(0)] * terms
        r = []
        for k in range(terms):
            r.append((p[k] - sum(q[j] * r[k - j] for j in range(1, k + 1))) / q[0])
        b = gelu_coefficients(c, terms - 1)
        err = sum(abs(r[k] - b[k]) * w**k for k in range(terms))
        rel = err / gelu_h(c + w)
        if rel > worst:
            worst, at = rel, i
    return worst, at


# ---- check: the headers' numbers against the tables above ------------------------
HEADERS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "include", "wherec")
NUMBER = re.compile(r"-?0x[0-9a-fA-F.]+(?:p[+-]?[0-9]+)?u?")


def header_numbers(header, start):
    """the hex numbers of a header from the text `start` to the next ';' (comments
    left out), or None when the header has no such text"""
    src = open(os.path.join(HEADERS, header)).read()
    if start not in src:
        return None
    body = re.sub(r"/\*.*?\*/", "", src[src.index(start) + len(start):], flags=re.S)
    body = body[:body.index(";")]
    return [int(t[:-1], 16) if t.endswith("u") else float.fromhex(t) for t in NUMBER.findall(body)]


def check():
    want = {
        ("crmath.h", "wc_log_tab_[3 * 128] = {"): [v for r in log_rows() for v in r[:3]],
        ("crmath.h", "wc_tanh_tab_[2 * 292] = {"): [v for r in tanh_rows() for v in r],
        ("crmath.h", "wc_erf_tab_[4 * 128] = {"): [v for r in erf_rows() for v in r],
        ("trig.h", "wc_trig_2opi_[5 * 145] = {"): [v for r in trig_2opi_rows() for v in r],
        ("trig.h", "wc_trig_tab_[4 * 64] = {"): [v for r in trig_rows() for v in r],
        ("inverse_trig.h", "wc_atan_tab_[4 * 65] = {"): [v for r in atan_rows() for v in r],
        ("inverse_trig.h", "  g = "): asin_coefficients(),
        ("inverse_trig.h", "  rz = "): asin_raw_coefficients(),
        ("inverse_trig.h", "  f = t * WC_F_("): list(reversed(atan_raw_coefficients())),
        ("crmath.h", "  double p = a * WC_F_("): list(reversed(erf_raw_coefficients()[0])),
        ("crmath.h", "  double s = (a - "): [erf_raw_c()],
        ("crmath.h", "  double q = WC_F_(s,"): list(reversed(erf_raw_coefficients()[1])),
        ("crmath.h", "  double e = WC_F_(r,"): list(reversed(erf_raw_coefficients()[2])),
        ("hyperbolic.h", "  double   c = WC_F_(z,"): list(reversed(hyp_raw_coefficients()[0])),
        ("hyperbolic.h", "  double   s = WC_F_(r * z,"): list(reversed(hyp_raw_coefficients()[1])),
        ("inverse_hyperbolic.h", "  double p = WC_F_(z,"): list(reversed(ahyp_raw_coefficients())),
        ("gelu.h", "wc_gelu_tab_[4 * 233] = {"): [v for r in gelu_rows() for v in r],
        ("gelu.h", "/* P(a) */"): GELU_RAW_P,
        ("gelu.h", "/* D(a) - 1 */"): GELU_RAW_D[1:],
    }
    bad = 0
    for (header, start), values in want.items():
        got = header_numbers(header, start) or []
        same = len(got) == len(values) and all(g == (v if isinstance(v, int) else float(v))
                                              for g, v in zip(got, values))
        print("%-16s %-28s %4d numbers: %s" % (header, start.strip(" ={"), len(got),
                                               "same" if same else "DIFFERENT or missing"))
        bad += not same
    return bad


COMMANDS = ("log", "tanh", "erf", "trig", "atan", "asin", "hyp", "gelu", "gelu_fit", "bounds", "check")


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "bounds"
    if what not in COMMANDS or len(sys.argv) > 2:
        sys.exit("usage: crmath_tables.py {%s}" % "|".join(COMMANDS))
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
        print("C " + d(erf_raw_c()))
        for name, cs in zip("PQE", erf_raw_coefficients()):
            print(name + " " + " ".join(d(c) for c in cs))
    elif what == "gelu":
        for b0h, b0l, b1h, b1l in gelu_rows():
            print("    %s, %s, %s, %s," % (d(b0h), d(b0l), d(b1h), d(b1l)))
    elif what == "gelu_fit":
        p, q = gelu_fit()
        print("P: " + ", ".join(d(v) for v in p))
        print("D: " + ", ".join(d(v) for v in q))
    elif what == "trig":
        for e, r in zip(range(110, 255), trig_2opi_rows()):
            print("   " + "".join(" 0x%08xu," % v for v in r) + " /* E = %d */" % e)
        for r in trig_rows():
            print("    " + ", ".join(d(v) for v in r) + ",")
    elif what == "atan":
        rows = atan_rows()
        for k in range(0, len(rows), 2):
            print("    " + ", ".join("%s, %s" % (d(h), d(l)) for h, l in rows[k:k + 2]) + ",")
        print(" ".join(d(c) for c in atan_raw_coefficients()))
    elif what == "asin":
        print(" ".join(d(c) for c in asin_coefficients()))
        print(" ".join(d(c) for c in asin_raw_coefficients()))
    elif what == "hyp":
        for name, cs in zip("CS", hyp_raw_coefficients()):
            print(name + " " + " ".join(d(c) for c in cs))
        print("P " + " ".join(d(c) for c in ahyp_raw_coefficients()))
    elif what == "check":
        sys.exit(1 if check() else 0)
    else:
        b, i = log_bound()
        print("log: B = 2^%.2f (interval %d)" % (float(mpmath.log(b, 2)), i))
        b, i = erf_bound()
        print("erf: B = 2^%.2f (interval %d)" % (float(mpmath.log(b, 2)), i))
        for name, l_center, e_v in AHYP:
            b, i = ahyp_bound(mpmath.mpf(l_center), mpmath.mpf(e_v))
            print("%s: B = 2^%.2f (interval %d)" % (name, float(mpmath.log(b, 2)), i))
        b, i = gelu_bound()
        print("gelu: h within 2^%.2f (interval %d)" % (float(mpmath.log(b, 2)), i))
        b, i = gelu_raw_bound()
        print("gelu raw: P/D within 2^%.2f of h (interval %d)" % (float(mpmath.log(b, 2)), i))
        e = asin_error()
        print("asin: |z^3 (G* - G)| <= 2^%.2f on 20001 points" % float(mpmath.log(e, 2)))
        small, big, e = [float(mpmath.log(v, 2)) for v in erf_raw_bound()]
        print("erf raw: B = 2^%.2f (a < 1), 2^%.2f (a >= 1; e^r within 2^%.2f)" % (small, big, e))
        b, i = erf_raw_taylor_bound()
        print("erf raw, gcc without FMA (Taylor at i/32 to n = 6): B = 2^%.2f (interval %d)"
              % (float(mpmath.log(b, 2)), i))
        b, r = [float(mpmath.log(v, 2)) for v in atan_raw_bound()]
        print("atan raw: B = 2^%.2f (R with its roundings within 2^%.2f)" % (b, r))
        a, s, b_asin, b_acos = [float(mpmath.log(v, 2)) for v in asin_raw_bound()]
        print("asin, acos raw: A within 2^%.2f, sqrt 2^%.2f; B asin 2^%.2f, acos 2^%.2f"
              % (a, s, b_asin, b_acos))
        b_sinh, b_cosh, e, s0 = [float(mpmath.log(v, 2)) for v in hyp_raw_bound()]
        print("sinh, cosh raw: B sinh 2^%.2f (2^%.2f where k = 0), cosh 2^%.2f; e^+-r within 2^%.2f"
              % (b_sinh, s0, b_cosh, e))
        b_as, b_ac, b_at, a = [float(mpmath.log(v, 2)) for v in ahyp_raw_bound()]
        print("asinh, acosh, atanh raw: B 2^%.2f, 2^%.2f, 2^%.2f; atanh(s) within 2^%.2f"
              % (b_as, b_ac, b_at, a))


if __name__ == "__main__":
    main()
