/* wherec/trig.h: sin, cos and tan correctly rounded to nearest even for float,
   float16 and bfloat16, without libm and without a branch, computed as exp is
   (wherec/exp.h says how, and why the bits are the same everywhere): a pair
   h + l within a proven bound B of f(x), rounded to odd, then into the target;
   B is below the distance D of every input's f(x) from the format's rounding
   boundaries (tests/runtime/crmath_hardest.c). Every finite float is reduced
   exactly (Payne-Hanek, in integers), up to 2^128. The tables are made by
   tests/runtime/crmath_tables.py trig (2/pi's bits; sin and cos of j pi/128). */
#ifndef WHEREC_TRIG_H
#define WHEREC_TRIG_H

#include <stdint.h>

#include "crmath.h"
#include "exp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- argument reduction ------------------------------------------------------
   |x| = m 2^s, m < 2^24 an integer, s = E - 150 (E the biased exponent, 1 for
   subnormals). For E in [110, 254] the table row E - 110 holds G_E = (2^s 2/pi)
   mod 4 truncated to a multiple of 2^-158: five 32-bit limbs g0..g4, G_E = g0
   2^-30 + g1 2^-62 + g2 2^-94 + g3 2^-126 + g4 2^-158 (2 integer bits). As m
   is an integer, m G_E = |x| 2/pi modulo 4 (the multiples of 4 dropped from
   2^s 2/pi stay multiples of 4 times m), within m 2^-158 < 2^-134. The five
   products m g_i < 2^56 are exact in 64 bits (32 x 32 -> 64 multiplies, which
   every vector unit has) and are summed with their carries from the bottom
   into a0 2^-30 + r1 2^-62 + r2 2^-94 + r3 2^-126 + r4 2^-158 (a0 < 2^57, of
   which only the low 32 bits count: modulo 4). Then v = 64 |x| 2/pi mod 256
   = a0 2^-24 + ...: K = round(v) mod 256 is (a0 + 2^23) >> 24, and w = v - K
   in [-1/2, 1/2) is f0 2^-24 + r1 2^-56 + r2 2^-88 + r3 2^-120 + r4 2^-152,
   f0 = ((a0 + 2^23) mod 2^24) - 2^23 signed. So |x| = (K + w) pi/128 modulo
   2 pi: quadrant k = K >> 6, table index j = K mod 64, t = (j + w) pi/128.
   w is cut into chunks of at most 52 bits: c0 = f0 2^-24 (signed), d1 (52
   bits, units 2^-76), d2 (44 bits, units 2^-120), d3 (32 bits, units 2^-152),
   each converted exactly (the integer in a double's significand, the bias
   subtracted). Fast2Sum(c0, d1) = h + e exactly (|c0| >= 2^-24 > d1 when c0
   != 0); d2 + d3 (< 2^-76) rounded within 2^-129, e + that (|e| <= 2^-53
   |h|) within 2^-106 |h| + 2^-129, a last Fast2Sum exact: (wh, wl) within
   2^-105.9 |w| + 2^-128 of the chunks' sum, so within 2^-105.9 |w| +
   2^-126.9 of w (with the truncation, 64 m 2^-158 < 2^-127.9).
   Relative to w that is what matters where w is small:
   - below E = 110 (|x| < 2^-16, k = 0, no cancellation) row 110 is used and
     w scaled by 2^(E - 110) (exactly: a power of two, no underflow in double);
     for E <= 152 G_E = 2^s 2/pi exactly up to the truncation, so for E <= 110
     the truncation is 2^-158 / G_110 < 2^-117 relative, and |w| >= 2^-11.6
     where E >= 110 (2^-128 is 2^-116 |w|): w within 2^-105 |w|.
   - near the multiples of pi/2 (k != 0, j = 0), cancellation: the float
     nearest a multiple of pi/2 is x = 0x1.f37c8ap+95 (16367173 * 2^72, the
     literature's worst case for float, Muller, "Elementary Functions", ch. 11,
     confirmed by a scan of every float >= pi/4 with this table in 128-bit
     integers and MPFR): |x 2/pi - k| = 2^-29.86, |x mod pi/2| = 0x1.bbdd52a58eafbp-30
     (2^-29.21, 125 bits cancelled). So |w| = 64 |x 2/pi - k| >= 2^-23.86
     wherever j = K mod 64 = 0 and x >= pi/4, and 2^-126.9 is 2^-103 |w|
     there: w is known within 2^-103 |w| wherever its relative error matters
     (j = 0), and within 2^-126.9 + 2^-105.9 |w| <= 2^-105 everywhere, far
     below B. */

/* Limbs of 32 bits stored in 64: gcc's generic tuning (-O2, no -march)
   emulates gathers only of elements as wide as their 64-bit index, and
   without that the loop stays scalar (3x slower). */
static const uint64_t wc_trig_2opi_[5 * 145] = {
    0x00000000u, 0x0028be60u, 0xdb939105u, 0x4a7f09d5u, 0xf47d4d37u, /* E = 110 */
    0x00000000u, 0x00517cc1u, 0xb727220au, 0x94fe13abu, 0xe8fa9a6eu, /* E = 111 */
    0x00000000u, 0x00a2f983u, 0x6e4e4415u, 0x29fc2757u, 0xd1f534ddu, /* E = 112 */
    0x00000000u, 0x0145f306u, 0xdc9c882au, 0x53f84eafu, 0xa3ea69bbu, /* E = 113 */
    0x00000000u, 0x028be60du, 0xb9391054u, 0xa7f09d5fu, 0x47d4d377u, /* E = 114 */
    0x00000000u, 0x0517cc1bu, 0x727220a9u, 0x4fe13abeu, 0x8fa9a6eeu, /* E = 115 */
    0x00000000u, 0x0a2f9836u, 0xe4e44152u, 0x9fc2757du, 0x1f534ddcu, /* E = 116 */
    0x00000000u, 0x145f306du, 0xc9c882a5u, 0x3f84eafau, 0x3ea69bb8u, /* E = 117 */
    0x00000000u, 0x28be60dbu, 0x9391054au, 0x7f09d5f4u, 0x7d4d3770u, /* E = 118 */
    0x00000000u, 0x517cc1b7u, 0x27220a94u, 0xfe13abe8u, 0xfa9a6ee0u, /* E = 119 */
    0x00000000u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, /* E = 120 */
    0x00000001u, 0x45f306dcu, 0x9c882a53u, 0xf84eafa3u, 0xea69bb81u, /* E = 121 */
    0x00000002u, 0x8be60db9u, 0x391054a7u, 0xf09d5f47u, 0xd4d37703u, /* E = 122 */
    0x00000005u, 0x17cc1b72u, 0x7220a94fu, 0xe13abe8fu, 0xa9a6ee06u, /* E = 123 */
    0x0000000au, 0x2f9836e4u, 0xe441529fu, 0xc2757d1fu, 0x534ddc0du, /* E = 124 */
    0x00000014u, 0x5f306dc9u, 0xc882a53fu, 0x84eafa3eu, 0xa69bb81bu, /* E = 125 */
    0x00000028u, 0xbe60db93u, 0x91054a7fu, 0x09d5f47du, 0x4d377036u, /* E = 126 */
    0x00000051u, 0x7cc1b727u, 0x220a94feu, 0x13abe8fau, 0x9a6ee06du, /* E = 127 */
    0x000000a2u, 0xf9836e4eu, 0x441529fcu, 0x2757d1f5u, 0x34ddc0dbu, /* E = 128 */
    0x00000145u, 0xf306dc9cu, 0x882a53f8u, 0x4eafa3eau, 0x69bb81b6u, /* E = 129 */
    0x0000028bu, 0xe60db939u, 0x1054a7f0u, 0x9d5f47d4u, 0xd377036du, /* E = 130 */
    0x00000517u, 0xcc1b7272u, 0x20a94fe1u, 0x3abe8fa9u, 0xa6ee06dbu, /* E = 131 */
    0x00000a2fu, 0x9836e4e4u, 0x41529fc2u, 0x757d1f53u, 0x4ddc0db6u, /* E = 132 */
    0x0000145fu, 0x306dc9c8u, 0x82a53f84u, 0xeafa3ea6u, 0x9bb81b6cu, /* E = 133 */
    0x000028beu, 0x60db9391u, 0x054a7f09u, 0xd5f47d4du, 0x377036d8u, /* E = 134 */
    0x0000517cu, 0xc1b72722u, 0x0a94fe13u, 0xabe8fa9au, 0x6ee06db1u, /* E = 135 */
    0x0000a2f9u, 0x836e4e44u, 0x1529fc27u, 0x57d1f534u, 0xddc0db62u, /* E = 136 */
    0x000145f3u, 0x06dc9c88u, 0x2a53f84eu, 0xafa3ea69u, 0xbb81b6c5u, /* E = 137 */
    0x00028be6u, 0x0db93910u, 0x54a7f09du, 0x5f47d4d3u, 0x77036d8au, /* E = 138 */
    0x000517ccu, 0x1b727220u, 0xa94fe13au, 0xbe8fa9a6u, 0xee06db14u, /* E = 139 */
    0x000a2f98u, 0x36e4e441u, 0x529fc275u, 0x7d1f534du, 0xdc0db629u, /* E = 140 */
    0x00145f30u, 0x6dc9c882u, 0xa53f84eau, 0xfa3ea69bu, 0xb81b6c52u, /* E = 141 */
    0x0028be60u, 0xdb939105u, 0x4a7f09d5u, 0xf47d4d37u, 0x7036d8a5u, /* E = 142 */
    0x00517cc1u, 0xb727220au, 0x94fe13abu, 0xe8fa9a6eu, 0xe06db14au, /* E = 143 */
    0x00a2f983u, 0x6e4e4415u, 0x29fc2757u, 0xd1f534ddu, 0xc0db6295u, /* E = 144 */
    0x0145f306u, 0xdc9c882au, 0x53f84eafu, 0xa3ea69bbu, 0x81b6c52bu, /* E = 145 */
    0x028be60du, 0xb9391054u, 0xa7f09d5fu, 0x47d4d377u, 0x036d8a56u, /* E = 146 */
    0x0517cc1bu, 0x727220a9u, 0x4fe13abeu, 0x8fa9a6eeu, 0x06db14acu, /* E = 147 */
    0x0a2f9836u, 0xe4e44152u, 0x9fc2757du, 0x1f534ddcu, 0x0db62959u, /* E = 148 */
    0x145f306du, 0xc9c882a5u, 0x3f84eafau, 0x3ea69bb8u, 0x1b6c52b3u, /* E = 149 */
    0x28be60dbu, 0x9391054au, 0x7f09d5f4u, 0x7d4d3770u, 0x36d8a566u, /* E = 150 */
    0x517cc1b7u, 0x27220a94u, 0xfe13abe8u, 0xfa9a6ee0u, 0x6db14accu, /* E = 151 */
    0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, /* E = 152 */
    0x45f306dcu, 0x9c882a53u, 0xf84eafa3u, 0xea69bb81u, 0xb6c52b32u, /* E = 153 */
    0x8be60db9u, 0x391054a7u, 0xf09d5f47u, 0xd4d37703u, 0x6d8a5664u, /* E = 154 */
    0x17cc1b72u, 0x7220a94fu, 0xe13abe8fu, 0xa9a6ee06u, 0xdb14acc9u, /* E = 155 */
    0x2f9836e4u, 0xe441529fu, 0xc2757d1fu, 0x534ddc0du, 0xb6295993u, /* E = 156 */
    0x5f306dc9u, 0xc882a53fu, 0x84eafa3eu, 0xa69bb81bu, 0x6c52b327u, /* E = 157 */
    0xbe60db93u, 0x91054a7fu, 0x09d5f47du, 0x4d377036u, 0xd8a5664fu, /* E = 158 */
    0x7cc1b727u, 0x220a94feu, 0x13abe8fau, 0x9a6ee06du, 0xb14acc9eu, /* E = 159 */
    0xf9836e4eu, 0x441529fcu, 0x2757d1f5u, 0x34ddc0dbu, 0x6295993cu, /* E = 160 */
    0xf306dc9cu, 0x882a53f8u, 0x4eafa3eau, 0x69bb81b6u, 0xc52b3278u, /* E = 161 */
    0xe60db939u, 0x1054a7f0u, 0x9d5f47d4u, 0xd377036du, 0x8a5664f1u, /* E = 162 */
    0xcc1b7272u, 0x20a94fe1u, 0x3abe8fa9u, 0xa6ee06dbu, 0x14acc9e2u, /* E = 163 */
    0x9836e4e4u, 0x41529fc2u, 0x757d1f53u, 0x4ddc0db6u, 0x295993c4u, /* E = 164 */
    0x306dc9c8u, 0x82a53f84u, 0xeafa3ea6u, 0x9bb81b6cu, 0x52b32788u, /* E = 165 */
    0x60db9391u, 0x054a7f09u, 0xd5f47d4du, 0x377036d8u, 0xa5664f10u, /* E = 166 */
    0xc1b72722u, 0x0a94fe13u, 0xabe8fa9au, 0x6ee06db1u, 0x4acc9e21u, /* E = 167 */
    0x836e4e44u, 0x1529fc27u, 0x57d1f534u, 0xddc0db62u, 0x95993c43u, /* E = 168 */
    0x06dc9c88u, 0x2a53f84eu, 0xafa3ea69u, 0xbb81b6c5u, 0x2b327887u, /* E = 169 */
    0x0db93910u, 0x54a7f09du, 0x5f47d4d3u, 0x77036d8au, 0x5664f10eu, /* E = 170 */
    0x1b727220u, 0xa94fe13au, 0xbe8fa9a6u, 0xee06db14u, 0xacc9e21cu, /* E = 171 */
    0x36e4e441u, 0x529fc275u, 0x7d1f534du, 0xdc0db629u, 0x5993c439u, /* E = 172 */
    0x6dc9c882u, 0xa53f84eau, 0xfa3ea69bu, 0xb81b6c52u, 0xb3278872u, /* E = 173 */
    0xdb939105u, 0x4a7f09d5u, 0xf47d4d37u, 0x7036d8a5u, 0x664f10e4u, /* E = 174 */
    0xb727220au, 0x94fe13abu, 0xe8fa9a6eu, 0xe06db14au, 0xcc9e21c8u, /* E = 175 */
    0x6e4e4415u, 0x29fc2757u, 0xd1f534ddu, 0xc0db6295u, 0x993c4390u, /* E = 176 */
    0xdc9c882au, 0x53f84eafu, 0xa3ea69bbu, 0x81b6c52bu, 0x32788720u, /* E = 177 */
    0xb9391054u, 0xa7f09d5fu, 0x47d4d377u, 0x036d8a56u, 0x64f10e41u, /* E = 178 */
    0x727220a9u, 0x4fe13abeu, 0x8fa9a6eeu, 0x06db14acu, 0xc9e21c82u, /* E = 179 */
    0xe4e44152u, 0x9fc2757du, 0x1f534ddcu, 0x0db62959u, 0x93c43904u, /* E = 180 */
    0xc9c882a5u, 0x3f84eafau, 0x3ea69bb8u, 0x1b6c52b3u, 0x27887208u, /* E = 181 */
    0x9391054au, 0x7f09d5f4u, 0x7d4d3770u, 0x36d8a566u, 0x4f10e410u, /* E = 182 */
    0x27220a94u, 0xfe13abe8u, 0xfa9a6ee0u, 0x6db14accu, 0x9e21c820u, /* E = 183 */
    0x4e441529u, 0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, /* E = 184 */
    0x9c882a53u, 0xf84eafa3u, 0xea69bb81u, 0xb6c52b32u, 0x78872083u, /* E = 185 */
    0x391054a7u, 0xf09d5f47u, 0xd4d37703u, 0x6d8a5664u, 0xf10e4107u, /* E = 186 */
    0x7220a94fu, 0xe13abe8fu, 0xa9a6ee06u, 0xdb14acc9u, 0xe21c820fu, /* E = 187 */
    0xe441529fu, 0xc2757d1fu, 0x534ddc0du, 0xb6295993u, 0xc439041fu, /* E = 188 */
    0xc882a53fu, 0x84eafa3eu, 0xa69bb81bu, 0x6c52b327u, 0x8872083fu, /* E = 189 */
    0x91054a7fu, 0x09d5f47du, 0x4d377036u, 0xd8a5664fu, 0x10e4107fu, /* E = 190 */
    0x220a94feu, 0x13abe8fau, 0x9a6ee06du, 0xb14acc9eu, 0x21c820ffu, /* E = 191 */
    0x441529fcu, 0x2757d1f5u, 0x34ddc0dbu, 0x6295993cu, 0x439041feu, /* E = 192 */
    0x882a53f8u, 0x4eafa3eau, 0x69bb81b6u, 0xc52b3278u, 0x872083fcu, /* E = 193 */
    0x1054a7f0u, 0x9d5f47d4u, 0xd377036du, 0x8a5664f1u, 0x0e4107f9u, /* E = 194 */
    0x20a94fe1u, 0x3abe8fa9u, 0xa6ee06dbu, 0x14acc9e2u, 0x1c820ff2u, /* E = 195 */
    0x41529fc2u, 0x757d1f53u, 0x4ddc0db6u, 0x295993c4u, 0x39041fe5u, /* E = 196 */
    0x82a53f84u, 0xeafa3ea6u, 0x9bb81b6cu, 0x52b32788u, 0x72083fcau, /* E = 197 */
    0x054a7f09u, 0xd5f47d4du, 0x377036d8u, 0xa5664f10u, 0xe4107f94u, /* E = 198 */
    0x0a94fe13u, 0xabe8fa9au, 0x6ee06db1u, 0x4acc9e21u, 0xc820ff28u, /* E = 199 */
    0x1529fc27u, 0x57d1f534u, 0xddc0db62u, 0x95993c43u, 0x9041fe51u, /* E = 200 */
    0x2a53f84eu, 0xafa3ea69u, 0xbb81b6c5u, 0x2b327887u, 0x2083fca2u, /* E = 201 */
    0x54a7f09du, 0x5f47d4d3u, 0x77036d8au, 0x5664f10eu, 0x4107f945u, /* E = 202 */
    0xa94fe13au, 0xbe8fa9a6u, 0xee06db14u, 0xacc9e21cu, 0x820ff28bu, /* E = 203 */
    0x529fc275u, 0x7d1f534du, 0xdc0db629u, 0x5993c439u, 0x041fe516u, /* E = 204 */
    0xa53f84eau, 0xfa3ea69bu, 0xb81b6c52u, 0xb3278872u, 0x083fca2cu, /* E = 205 */
    0x4a7f09d5u, 0xf47d4d37u, 0x7036d8a5u, 0x664f10e4u, 0x107f9458u, /* E = 206 */
    0x94fe13abu, 0xe8fa9a6eu, 0xe06db14au, 0xcc9e21c8u, 0x20ff28b1u, /* E = 207 */
    0x29fc2757u, 0xd1f534ddu, 0xc0db6295u, 0x993c4390u, 0x41fe5163u, /* E = 208 */
    0x53f84eafu, 0xa3ea69bbu, 0x81b6c52bu, 0x32788720u, 0x83fca2c7u, /* E = 209 */
    0xa7f09d5fu, 0x47d4d377u, 0x036d8a56u, 0x64f10e41u, 0x07f9458eu, /* E = 210 */
    0x4fe13abeu, 0x8fa9a6eeu, 0x06db14acu, 0xc9e21c82u, 0x0ff28b1du, /* E = 211 */
    0x9fc2757du, 0x1f534ddcu, 0x0db62959u, 0x93c43904u, 0x1fe5163au, /* E = 212 */
    0x3f84eafau, 0x3ea69bb8u, 0x1b6c52b3u, 0x27887208u, 0x3fca2c75u, /* E = 213 */
    0x7f09d5f4u, 0x7d4d3770u, 0x36d8a566u, 0x4f10e410u, 0x7f9458eau, /* E = 214 */
    0xfe13abe8u, 0xfa9a6ee0u, 0x6db14accu, 0x9e21c820u, 0xff28b1d5u, /* E = 215 */
    0xfc2757d1u, 0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, /* E = 216 */
    0xf84eafa3u, 0xea69bb81u, 0xb6c52b32u, 0x78872083u, 0xfca2c757u, /* E = 217 */
    0xf09d5f47u, 0xd4d37703u, 0x6d8a5664u, 0xf10e4107u, 0xf9458eafu, /* E = 218 */
    0xe13abe8fu, 0xa9a6ee06u, 0xdb14acc9u, 0xe21c820fu, 0xf28b1d5eu, /* E = 219 */
    0xc2757d1fu, 0x534ddc0du, 0xb6295993u, 0xc439041fu, 0xe5163abdu, /* E = 220 */
    0x84eafa3eu, 0xa69bb81bu, 0x6c52b327u, 0x8872083fu, 0xca2c757bu, /* E = 221 */
    0x09d5f47du, 0x4d377036u, 0xd8a5664fu, 0x10e4107fu, 0x9458eaf7u, /* E = 222 */
    0x13abe8fau, 0x9a6ee06du, 0xb14acc9eu, 0x21c820ffu, 0x28b1d5efu, /* E = 223 */
    0x2757d1f5u, 0x34ddc0dbu, 0x6295993cu, 0x439041feu, 0x5163abdeu, /* E = 224 */
    0x4eafa3eau, 0x69bb81b6u, 0xc52b3278u, 0x872083fcu, 0xa2c757bdu, /* E = 225 */
    0x9d5f47d4u, 0xd377036du, 0x8a5664f1u, 0x0e4107f9u, 0x458eaf7au, /* E = 226 */
    0x3abe8fa9u, 0xa6ee06dbu, 0x14acc9e2u, 0x1c820ff2u, 0x8b1d5ef5u, /* E = 227 */
    0x757d1f53u, 0x4ddc0db6u, 0x295993c4u, 0x39041fe5u, 0x163abdebu, /* E = 228 */
    0xeafa3ea6u, 0x9bb81b6cu, 0x52b32788u, 0x72083fcau, 0x2c757bd7u, /* E = 229 */
    0xd5f47d4du, 0x377036d8u, 0xa5664f10u, 0xe4107f94u, 0x58eaf7aeu, /* E = 230 */
    0xabe8fa9au, 0x6ee06db1u, 0x4acc9e21u, 0xc820ff28u, 0xb1d5ef5du, /* E = 231 */
    0x57d1f534u, 0xddc0db62u, 0x95993c43u, 0x9041fe51u, 0x63abdebbu, /* E = 232 */
    0xafa3ea69u, 0xbb81b6c5u, 0x2b327887u, 0x2083fca2u, 0xc757bd77u, /* E = 233 */
    0x5f47d4d3u, 0x77036d8au, 0x5664f10eu, 0x4107f945u, 0x8eaf7aefu, /* E = 234 */
    0xbe8fa9a6u, 0xee06db14u, 0xacc9e21cu, 0x820ff28bu, 0x1d5ef5deu, /* E = 235 */
    0x7d1f534du, 0xdc0db629u, 0x5993c439u, 0x041fe516u, 0x3abdebbcu, /* E = 236 */
    0xfa3ea69bu, 0xb81b6c52u, 0xb3278872u, 0x083fca2cu, 0x757bd778u, /* E = 237 */
    0xf47d4d37u, 0x7036d8a5u, 0x664f10e4u, 0x107f9458u, 0xeaf7aef1u, /* E = 238 */
    0xe8fa9a6eu, 0xe06db14au, 0xcc9e21c8u, 0x20ff28b1u, 0xd5ef5de2u, /* E = 239 */
    0xd1f534ddu, 0xc0db6295u, 0x993c4390u, 0x41fe5163u, 0xabdebbc5u, /* E = 240 */
    0xa3ea69bbu, 0x81b6c52bu, 0x32788720u, 0x83fca2c7u, 0x57bd778au, /* E = 241 */
    0x47d4d377u, 0x036d8a56u, 0x64f10e41u, 0x07f9458eu, 0xaf7aef15u, /* E = 242 */
    0x8fa9a6eeu, 0x06db14acu, 0xc9e21c82u, 0x0ff28b1du, 0x5ef5de2bu, /* E = 243 */
    0x1f534ddcu, 0x0db62959u, 0x93c43904u, 0x1fe5163au, 0xbdebbc56u, /* E = 244 */
    0x3ea69bb8u, 0x1b6c52b3u, 0x27887208u, 0x3fca2c75u, 0x7bd778acu, /* E = 245 */
    0x7d4d3770u, 0x36d8a566u, 0x4f10e410u, 0x7f9458eau, 0xf7aef158u, /* E = 246 */
    0xfa9a6ee0u, 0x6db14accu, 0x9e21c820u, 0xff28b1d5u, 0xef5de2b0u, /* E = 247 */
    0xf534ddc0u, 0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u, /* E = 248 */
    0xea69bb81u, 0xb6c52b32u, 0x78872083u, 0xfca2c757u, 0xbd778ac3u, /* E = 249 */
    0xd4d37703u, 0x6d8a5664u, 0xf10e4107u, 0xf9458eafu, 0x7aef1586u, /* E = 250 */
    0xa9a6ee06u, 0xdb14acc9u, 0xe21c820fu, 0xf28b1d5eu, 0xf5de2b0du, /* E = 251 */
    0x534ddc0du, 0xb6295993u, 0xc439041fu, 0xe5163abdu, 0xebbc561bu, /* E = 252 */
    0xa69bb81bu, 0x6c52b327u, 0x8872083fu, 0xca2c757bu, 0xd778ac36u, /* E = 253 */
    0x4d377036u, 0xd8a5664fu, 0x10e4107fu, 0x9458eaf7u, 0xaef1586du, /* E = 254 */
};

static const double wc_trig_tab_[4 * 64] = { /* sin: hi26, lo; cos: hi26, lo */
    0x0p+0, 0x0p+0, 0x1p+0, 0x0p+0,
    0x1.92155fp-6, 0x1.e8d99f7e4e29dp-32, 0x1.ffd886p-1, 0x1.099a19765595dp-30,
    0x1.91f65fp-5, 0x1.0dd813e6ed42fp-33, 0x1.ff621ep-1, 0x1.bcb6bef1d421fp-28,
    0x1.2d5209p-4, 0x1.670cfae65f775p-31, 0x1.fe9cda8p-1, 0x1.40620e85487b3p-27,
    0x1.917a6b8p-4, 0x1.0a6d0af87639dp-30, 0x1.fd88dap-1, 0x1.e89292cf04139p-28,
    0x1.f564e5p-4, 0x1.aa5cc38d13824p-30, 0x1.fc2647p-1, 0x1.c33fa68f64334p-30,
    0x1.2c81068p-3, 0x1.a3984e8898005p-29, 0x1.fa75578p-1, 0x1.c22945a85f573p-27,
    0x1.5e2144p-3, 0x1.22cff19531ff7p-29, 0x1.f8764f8p-1, 0x1.38a5d49ab2567p-28,
    0x1.8f8b838p-3, 0x1.1a6982ad92e64p-29, 0x1.f6297c8p-1, 0x1.fdd72c0ab10b9p-27,
    0x1.c0b8268p-3, 0x1.3f27b17e50ebcp-30, 0x1.f38f3a8p-1, 0x1.1939623142282p-27,
    0x1.f19f978p-3, 0x1.90af8d57a4222p-30, 0x1.f0a7ef8p-1, 0x1.c9186b952c7aep-28,
    0x1.111d26p-2, 0x1.58fb3bb049841p-29, 0x1.ed740ep-1, 0x1.da1258cf4163dp-27,
    0x1.2940628p-2, 0x1.b567c16a2d726p-28, 0x1.e9f415p-1, 0x1.b18b769760b1ep-27,
    0x1.4135c9p-2, 0x1.05d98050c97c5p-28, 0x1.e6288e8p-1, 0x1.1238447ba52a4p-27,
    0x1.58f9a7p-2, 0x1.6ac7f73f8409p-28, 0x1.e2121p-1, 0x1.3da1b92feb389p-27,
    0x1.708853p-2, 0x1.f48b3d5da731p-31, 0x1.ddb13bp-1, 0x1.b3308f183c37cp-27,
    0x1.87de2ap-2, 0x1.abaa58b469891p-28, 0x1.d906bc8p-1, 0x1.cca3518a2bf31p-27,
    0x1.9ef794p-2, 0x1.d476c516da813p-29, 0x1.d4134dp-1, 0x1.4dc939ac42b5bp-29,
    0x1.b5d1008p-2, 0x1.e15cc02b66c59p-30, 0x1.ced7afp-1, 0x1.0f31dcbc30929p-27,
    0x1.cc66e98p-2, 0x1.31c45e16850e6p-30, 0x1.c954b2p-1, 0x1.3411f4f68244fp-29,
    0x1.e2b5d38p-2, 0x1.bd8ec78362475p-36, 0x1.c38b2fp-1, 0x1.80bdb0d23e9d1p-29,
    0x1.f8ba4d8p-2, 0x1.fc4d5cfda27cp-29, 0x1.bd7c0a8p-1, 0x1.1be54a67da58dp-27,
    0x1.0738798p-1, 0x1.22ffed9697fafp-29, 0x1.b72834p-1, 0x1.465b8f643960dp-27,
    0x1.11eb35p-1, 0x1.06d2c8a10dc49p-27, 0x1.b090a58p-1, 0x1.501ff9b64974p-33,
    0x1.1c73b38p-1, 0x1.ae68c86c9774ap-29, 0x1.a9b6628p-1, 0x1.0ea1a3033ec62p-29,
    0x1.26d0548p-1, 0x1.3744b7aa258bcp-27, 0x1.a29a7ap-1, 0x1.189e0776ba27fp-31,
    0x1.30ff7f8p-1, 0x1.385c0d3840ce7p-27, 0x1.9b3e04p-1, 0x1.fce1d02cf11d8p-27,
    0x1.3affa28p-1, 0x1.2050b93c7c4bcp-29, 0x1.93a2248p-1, 0x1.9263fb4f5066ap-29,
    0x1.44cf32p-1, 0x1.4247758601da9p-27, 0x1.8bc8068p-1, 0x1.8a8ba05a743dap-28,
    0x1.4e6cab8p-1, 0x1.f1f2f489e149fp-28, 0x1.83b0e08p-1, 0x1.ffcbb6e90bdfp-28,
    0x1.57d693p-1, 0x1.233b27e8a8df6p-27, 0x1.7b5df2p-1, 0x1.3557d76f0ac85p-28,
    0x1.610b75p-1, 0x1.474b37b6d7265p-27, 0x1.72d083p-1, 0x1.fbffe590d4ef1p-27,
    0x1.6a09e6p-1, 0x1.9fcef32422cbfp-27, 0x1.6a09e6p-1, 0x1.9fcef32422cbfp-27,
    0x1.72d083p-1, 0x1.fbffe590d4ef1p-27, 0x1.610b75p-1, 0x1.474b37b6d7265p-27,
    0x1.7b5df2p-1, 0x1.3557d76f0ac85p-28, 0x1.57d693p-1, 0x1.233b27e8a8df6p-27,
    0x1.83b0e08p-1, 0x1.ffcbb6e90bdfp-28, 0x1.4e6cab8p-1, 0x1.f1f2f489e149fp-28,
    0x1.8bc8068p-1, 0x1.8a8ba05a743dap-28, 0x1.44cf32p-1, 0x1.4247758601da9p-27,
    0x1.93a2248p-1, 0x1.9263fb4f5066ap-29, 0x1.3affa28p-1, 0x1.2050b93c7c4bcp-29,
    0x1.9b3e04p-1, 0x1.fce1d02cf11d8p-27, 0x1.30ff7f8p-1, 0x1.385c0d3840ce7p-27,
    0x1.a29a7ap-1, 0x1.189e0776ba27fp-31, 0x1.26d0548p-1, 0x1.3744b7aa258bcp-27,
    0x1.a9b6628p-1, 0x1.0ea1a3033ec62p-29, 0x1.1c73b38p-1, 0x1.ae68c86c9774ap-29,
    0x1.b090a58p-1, 0x1.501ff9b64974p-33, 0x1.11eb35p-1, 0x1.06d2c8a10dc49p-27,
    0x1.b72834p-1, 0x1.465b8f643960dp-27, 0x1.0738798p-1, 0x1.22ffed9697fafp-29,
    0x1.bd7c0a8p-1, 0x1.1be54a67da58dp-27, 0x1.f8ba4d8p-2, 0x1.fc4d5cfda27cp-29,
    0x1.c38b2fp-1, 0x1.80bdb0d23e9d1p-29, 0x1.e2b5d38p-2, 0x1.bd8ec78362475p-36,
    0x1.c954b2p-1, 0x1.3411f4f68244fp-29, 0x1.cc66e98p-2, 0x1.31c45e16850e6p-30,
    0x1.ced7afp-1, 0x1.0f31dcbc30929p-27, 0x1.b5d1008p-2, 0x1.e15cc02b66c59p-30,
    0x1.d4134dp-1, 0x1.4dc939ac42b5bp-29, 0x1.9ef794p-2, 0x1.d476c516da813p-29,
    0x1.d906bc8p-1, 0x1.cca3518a2bf31p-27, 0x1.87de2ap-2, 0x1.abaa58b469891p-28,
    0x1.ddb13bp-1, 0x1.b3308f183c37cp-27, 0x1.708853p-2, 0x1.f48b3d5da731p-31,
    0x1.e2121p-1, 0x1.3da1b92feb389p-27, 0x1.58f9a7p-2, 0x1.6ac7f73f8409p-28,
    0x1.e6288e8p-1, 0x1.1238447ba52a4p-27, 0x1.4135c9p-2, 0x1.05d98050c97c5p-28,
    0x1.e9f415p-1, 0x1.b18b769760b1ep-27, 0x1.2940628p-2, 0x1.b567c16a2d726p-28,
    0x1.ed740ep-1, 0x1.da1258cf4163dp-27, 0x1.111d26p-2, 0x1.58fb3bb049841p-29,
    0x1.f0a7ef8p-1, 0x1.c9186b952c7aep-28, 0x1.f19f978p-3, 0x1.90af8d57a4222p-30,
    0x1.f38f3a8p-1, 0x1.1939623142282p-27, 0x1.c0b8268p-3, 0x1.3f27b17e50ebcp-30,
    0x1.f6297c8p-1, 0x1.fdd72c0ab10b9p-27, 0x1.8f8b838p-3, 0x1.1a6982ad92e64p-29,
    0x1.f8764f8p-1, 0x1.38a5d49ab2567p-28, 0x1.5e2144p-3, 0x1.22cff19531ff7p-29,
    0x1.fa75578p-1, 0x1.c22945a85f573p-27, 0x1.2c81068p-3, 0x1.a3984e8898005p-29,
    0x1.fc2647p-1, 0x1.c33fa68f64334p-30, 0x1.f564e5p-4, 0x1.aa5cc38d13824p-30,
    0x1.fd88dap-1, 0x1.e89292cf04139p-28, 0x1.917a6b8p-4, 0x1.0a6d0af87639dp-30,
    0x1.fe9cda8p-1, 0x1.40620e85487b3p-27, 0x1.2d5209p-4, 0x1.670cfae65f775p-31,
    0x1.ff621ep-1, 0x1.bcb6bef1d421fp-28, 0x1.91f65fp-5, 0x1.0dd813e6ed42fp-33,
    0x1.ffd886p-1, 0x1.099a19765595dp-30, 0x1.92155fp-6, 0x1.e8d99f7e4e29dp-32,
};

/* An integer u < 2^52 times 2^(b - 1075) as a double, exactly: u in the
   significand bits of 2^(b - 1023), that power subtracted (b = 1075: u). */
WC_INLINE double wc_trig_u52_(uint64_t u, uint64_t b) {
  return wc_bits_to_f64((b << 52) | u) - wc_bits_to_f64(b << 52);
}

/* |x| (bits a, finite) = (K + wh + wl) pi/128 modulo 2 pi, K in [0, 256),
   wh = RN(wh + wl), |wh + wl| <= 1/2 (the comment above). */
WC_INLINE double wc_trig_reduce_(uint32_t a, double *wl, uint64_t *K) {
  WC_CR_CONTRACT_
  uint32_t e = a >> 23, e1 = e | (uint32_t)(e == 0), lo = e1 < 110u ? e1 : 110u;
  uint64_t m = (a & 0x7fffffu) | ((uint64_t)(e != 0) << 23);
  uint64_t row = 5u * (uint64_t)((e1 < 110u ? 110u : e1) - 110u); /* 64 bits: gcc gathers */
  uint64_t a4 = m * wc_trig_2opi_[row + 4];
  uint64_t a3 = m * wc_trig_2opi_[row + 3] + (a4 >> 32);
  uint64_t a2 = m * wc_trig_2opi_[row + 2] + (a3 >> 32);
  uint64_t a1 = m * wc_trig_2opi_[row + 1] + (a2 >> 32);
  uint64_t a0 = m * wc_trig_2opi_[row] + (a1 >> 32) + 0x800000u;
  uint64_t x12 = ((a1 & 0xffffffffu) << 32) | (a2 & 0xffffffffu); /* r1 r2, units 2^-88 */
  double   c0 = wc_bits_to_f64(0x4338000000000000u + ((a0 & 0xffffffu) - 0x800000u)) - 0x1.8p52;
  double   d1 = wc_trig_u52_(x12 >> 12, 1075u - 76u);
  double   d2 = wc_trig_u52_(((x12 & 0xfffu) << 32) | (a3 & 0xffffffffu), 1075u - 120u);
  double   d3 = wc_trig_u52_(a4 & 0xffffffffu, 1075u - 152u);
  double   sc = wc_bits_to_f64((uint64_t)(lo + 913u) << 52); /* 2^(min(E, 110) - 110) */
  double   h, l, s;
  c0 = c0 * 0x1p-24;
  h = c0 + d1;
  l = (d1 - (h - c0)) + (d2 + d3);
  s = h + l;
  *wl = (l - (s - h)) * sc;
  *K = (a0 >> 24) & 255u;
  return s * sc;
}

/* ---- sin and cos of t = (j + w) pi/128, then of x ------------------------------
   b = w pi/128, |b| <= pi/256 (1 + 2^-50); S + C = sin and cos of j pi/128
   (table: S = Sh + Sl, Sh its first 26 bits, Sl within 2^-53 |Sl| < 2^-78 S;
   the same for C). With cos b = 1 - c2 and sin b = b - s3:
     sin t = S + C b - S c2 - C s3,     cos t = C - S b - C c2 + S s3.
   - (bh, bl) = w (PI1 + PI2), PI1 = pi/128's first 26 bits, PI2 the rest as
     a double (pi/128 within 2^-79.6): u1 PI1 and u2 PI1 are exact (wh = u1 +
     u2, u1 its first 26 bits, u2 <= 2^-25 |wh| with 27 bits); the rest,
     <= 2^-25 |b|, is rounded twice, Fast2Sum: |bh + bl - b| <= 2^-76 |b|.
   - C b = Ch b1 + [Ch b2 + (Cl bh + C bl)], b1 = bh's first 26 bits: Ch b1
     and Ch b2 exact (26 x 26 and 26 x 27 bits), the bracket (<= 2^-24 |C b|)
     within 2^-77 |C b|, Cl bl (2^-78) dropped. Fast2Sum(Sh, Ch b1) is exact:
     |Sh| >= sin(pi/128) > |b| when j != 0, Sh = 0 when j = 0; likewise
     Fast2Sum(Ch, -Sh b1) (Ch >= sin(pi/128) for j <= 63).
   - z = bh (bh + 2 bl) within 2.01 * 2^-53 of b^2 (<= 2^-12.7);
     c2 = z (1/2 - z/24 + z^2/720 - z^3/8!) within 4.01 * 2^-53 |c2|
     (truncation b^10/10! < 2^-88 |c2|), |c2| <= 2^-13.70;
     s3 = (z bh) (1/6 - z/120 + z^2/5040) within 7.01 * 2^-53 |s3|
     (truncation b^9/9! < 2^-75.6), |s3| <= |b|^3/6 <= 2^-21.63.
   - The small terms summed into lo: Sl (or Cl), the bracket, S c2 and C s3
     (S, C rounded to double: within 2^-53), then the first Fast2Sum's error;
     then Fast2Sum(hi, lo), exact.
   Bounds, relative to R = |sin t| (|cos t| alike, mirrored: j + w -> 64 - j -
   w): for j >= 1, t in [(j - 1/2), (j + 1/2)] pi/128 gives R >= sin(pi/256)
   = 2^-6.348, |S| <= 2 cos(pi/256) R <= 2R (j = 1 the worst), |C b| <= |b| <=
   1.0001 R. So: S c2 <= 2^-12.70 R, within (1 + 4.01 + 1) 2^-53 of itself:
   2^-63.11 R; C s3 <= 2^-15.28 R, within 9.01 * 2^-53: 2^-65.11 R; the four
   additions into lo, partial sums <= 2^-12.6 R: 4 * 2^-53 * 2^-12.6 R <=
   2^-63.6 R; s3's truncation 2^-69.3 R, b's 2^-76 R, the bracket 2^-77 R, the
   tables 2^-77 R, w's error (<= 2^-105) 2^-98 R: in all 2^-63.11 (1 + 0.71
   + 0.25 + 0.02) R <= 2^-62.1 R. For j = 0 (S = 0, C = 1 exactly): sin t =
   b - s3, R >= 0.9999 |b|, s3 <= 2^-15.28 R within 7.01 * 2^-53, one
   addition, b's error and w's relative error (2^-103): 2^-65.3 R; cos t =
   1 - c2 >= 0.9999: 2^-66 R.
   So each of sin t, cos t is within 2^-62.1 of itself; the quadrant k
   selects and negates (exactly): sin x = (sin t, cos t, -sin t, -cos t)[k],
   cos x = (cos t, -sin t, -cos t, sin t)[k]. */

/* sin |x| = *sh + *sl and cos |x| = *ch + *cl, each within 2^-62.1 relative,
   sh = RN(sh + sl), ch = RN(ch + cl), for |x| of bits a (finite). */
WC_INLINE void wc_trig_sc_(uint32_t a, double *sh, double *sl, double *ch, double *cl) {
  WC_CR_CONTRACT_
  uint64_t K, j, k;
  double   wl, wh = wc_trig_reduce_(a, &wl, &K);
  double   u1 = wc_cr_trunc_(wh, 26), b0 = u1 * 0x1.921fb5p-6;
  double   bt = (wh - u1) * 0x1.921fb5p-6 + (wh * 0x1.110b4611a6263p-32 + wl * 0x1.921fb5p-6);
  double   bh = b0 + bt, bl = bt - (bh - b0), b1 = wc_cr_trunc_(bh, 26), b2 = bh - b1;
  double   z = bh * (bh + 2.0 * bl);
  double   c2 = z * (0.5 + z * (-0x1.5555555555555p-5 + z * (0x1.6c16c16c16c17p-10 +
                z * -0x1.a01a01a01a01ap-16)));
  double   s3 = (z * bh) * (0x1.5555555555555p-3 + z * (-0x1.1111111111111p-7 +
                z * 0x1.a01a01a01a01ap-13));
  double   shi, slo, chi, clo, t, sin_h, sin_l, cos_h, cos_l, sg;
  double   Sh, Sl, Ch, Cl, S, C;
  j = K & 63u;
  k = K >> 6;
  Sh = wc_trig_tab_[4 * j];
  Sl = wc_trig_tab_[4 * j + 1];
  Ch = wc_trig_tab_[4 * j + 2];
  Cl = wc_trig_tab_[4 * j + 3];
  S = Sh + Sl;
  C = Ch + Cl;
  /* sin t */
  shi = Sh + Ch * b1;
  t = Ch * b2 + (Cl * bh + C * bl);
  slo = (((Sl + t) - S * c2) - C * s3) + (Ch * b1 - (shi - Sh));
  sin_h = shi + slo;
  sin_l = slo - (sin_h - shi);
  /* cos t */
  chi = Ch - Sh * b1;
  t = Sh * b2 + (Sl * bh + S * bl);
  clo = (((Cl - t) - C * c2) + S * s3) + ((Ch - chi) - Sh * b1);
  cos_h = chi + clo;
  cos_l = clo - (cos_h - chi);
  /* the quadrant: odd k swaps, k = 2, 3 negate sin x, k = 1, 2 cos x */
  sg = wc_sel_f64((k & 2u) != 0, -1.0, 1.0);
  *sh = sg * wc_sel_f64((k & 1u) != 0, cos_h, sin_h);
  *sl = sg * wc_sel_f64((k & 1u) != 0, cos_l, sin_l);
  sg = wc_sel_f64(((k + 1u) & 2u) != 0, -1.0, 1.0);
  *ch = sg * wc_sel_f64((k & 1u) != 0, sin_h, cos_h);
  *cl = sg * wc_sel_f64((k & 1u) != 0, sin_l, cos_l);
}

/* ---- sin, cos, tan -----------------------------------------------------------
   sin and cos: B = 2^-62.1 (above). tan x = N / M with (N, M) = (sin x, cos x)
   (each within 2^-62.1), divided as a pair: y0 = N/M to 26 bits (within
   2^-24.9 of it), rho = N - y0 M: y0 Mh1 exact (26 x 26 bits; Mh1 = Mh's
   first 26 bits) and Nh - y0 Mh1 exact (Sterbenz: y0 Mh1 within 2^-23.9 of
   Nh), y0 (Mh - Mh1) exact (26 x 27 bits); the rest (<= 2^-23.9 |N|) rounded
   three times and Nl - y0 Ml once, within 2^-76 |N| in all; q1 = rho / Mh
   (Mh for Mh + Ml: 2^-53, the division 2^-53; |q1| <= 2^-23.9 |N/M|) within
   2^-75.9 |N/M|; Fast2Sum(y0, q1) exact. So B = 2^-62.1 * 2 + 2^-75 <= 2^-61.1.
   tan never overflows float (|tan x| <= 1/|cos x| and |cos x| >= (2/pi)
   |x mod pi/2| >= 2^-29.9, the float x nearest an odd multiple of pi/2 the
   worst) and tan of a huge x is reduced exactly as sin's.
   D (the distance tests/runtime/crmath_hardest.c defines, over every input,
   MPFR at 256 bits for all within 2^-40 of a midpoint; the half formats by
   crmath_hardest, float by a checker with a faster exact reduction as its
   filter): sin float 2^-54.2 (x = 0x1.487e0cp+103), float16 2^-26.7,
   bfloat16 2^-25.3; cos float 2^-55.9 (x = 0x1.2b9622p+67), float16 2^-28.5,
   bfloat16 2^-23.1; tan float 2^-54.5 (x = 0x1.fa6748p+64), float16 2^-28.0,
   bfloat16 2^-26.1. B < D in each (by 7 bits at least).
   Special values: sin(+-0) = +-0, cos(+-0) = 1, tan(+-0) = +-0 (computed:
   w = 0 gives +0, and the sign of x is put back on the odd functions);
   +-inf gives the canonical NaN (a domain error), a NaN that NaN quieted. */

/* |x| of a float's bits u, its bits clamped to the largest float (inf and NaN
   are the callers'). */
WC_INLINE uint32_t wc_trig_abs_(uint32_t u) {
  uint32_t a = u & 0x7fffffffu;
  return a < 0x7f7fffffu ? a : 0x7f7fffffu;
}

WC_INLINE double wc_sin_odd_(uint32_t a) {
  double sh, sl, ch, cl;
  wc_trig_sc_(a, &sh, &sl, &ch, &cl);
  return wc_cr_odd_(sh, sl);
}
WC_INLINE double wc_cos_odd_(uint32_t a) {
  double sh, sl, ch, cl;
  wc_trig_sc_(a, &sh, &sl, &ch, &cl);
  return wc_cr_odd_(ch, cl);
}
WC_INLINE double wc_tan_odd_(uint32_t a) {
  WC_CR_CONTRACT_
  double nh, nl, mh, ml, y0, m1, rho, q1, h;
  wc_trig_sc_(a, &nh, &nl, &mh, &ml);
  y0 = wc_cr_trunc_(nh / mh, 26);
  m1 = wc_cr_trunc_(mh, 26);
  rho = ((nh - y0 * m1) - y0 * (mh - m1)) + (nl - y0 * ml);
  q1 = rho / mh;
  h = y0 + q1;
  return wc_cr_odd_(h, q1 - (h - y0));
}

/* w with the sign bit of the float bits u put on (xor: the odd functions). */
WC_INLINE double wc_trig_sign_(double w, uint32_t u) {
  return wc_bits_to_f64(wc_f64_to_bits(w) ^ ((uint64_t)(u & 0x80000000u) << 32));
}

/* The float result r (f(|x|) rounded), with x's sign for the odd functions
   (odd = 0x80000000) and the special values. */
WC_INLINE float wc_trig_f32_(float x, float r, uint32_t odd) {
  uint32_t u = wc_f32_to_bits(x);
  r = wc_bits_to_f32(wc_f32_to_bits(r) ^ (u & odd));
  r = wc_sel_f32((u & 0x7fffffffu) == 0x7f800000u, wc_bits_to_f32(WC_CR_NAN_), r);
  return wc_sel_f32(x != x, wc_quiet_f32(x), r);
}
WC_INLINE wc_float16 wc_trig_f16_(wc_float16 a, double w) {
  return wc_sel_f16((a & 0x7fffu) == 0x7c00u, (wc_float16)0x7e00u, wc_cr_f16_of_(a, w, 0));
}
WC_INLINE wc_bfloat16 wc_trig_bf16_(wc_bfloat16 a, double w) {
  return wc_sel_bf16((a & 0x7fffu) == 0x7f80u, (wc_bfloat16)0x7fc0u, wc_cr_bf16_of_(a, w, 0));
}

WC_INLINE float wc_sin_f32(float x) {
  return wc_trig_f32_(x, (float)wc_sin_odd_(wc_trig_abs_(wc_f32_to_bits(x))), 0x80000000u);
}
WC_INLINE wc_float16 wc_sin_f16(wc_float16 a) {
  uint32_t u = wc_f32_to_bits((float)wc_cr_f16_in_(a));
  return wc_trig_f16_(a, wc_trig_sign_(wc_sin_odd_(wc_trig_abs_(u)), u));
}
WC_INLINE wc_bfloat16 wc_sin_bf16(wc_bfloat16 a) {
  uint32_t u = (uint32_t)a << 16;
  return wc_trig_bf16_(a, wc_trig_sign_(wc_sin_odd_(wc_trig_abs_(u)), u));
}

WC_INLINE float wc_cos_f32(float x) {
  return wc_trig_f32_(x, (float)wc_cos_odd_(wc_trig_abs_(wc_f32_to_bits(x))), 0u);
}
WC_INLINE wc_float16 wc_cos_f16(wc_float16 a) {
  return wc_trig_f16_(a, wc_cos_odd_(wc_trig_abs_(wc_f32_to_bits((float)wc_cr_f16_in_(a)))));
}
WC_INLINE wc_bfloat16 wc_cos_bf16(wc_bfloat16 a) {
  return wc_trig_bf16_(a, wc_cos_odd_(wc_trig_abs_((uint32_t)a << 16)));
}

WC_INLINE float wc_tan_f32(float x) {
  return wc_trig_f32_(x, (float)wc_tan_odd_(wc_trig_abs_(wc_f32_to_bits(x))), 0x80000000u);
}
WC_INLINE wc_float16 wc_tan_f16(wc_float16 a) {
  uint32_t u = wc_f32_to_bits((float)wc_cr_f16_in_(a));
  return wc_trig_f16_(a, wc_trig_sign_(wc_tan_odd_(wc_trig_abs_(u)), u));
}
WC_INLINE wc_bfloat16 wc_tan_bf16(wc_bfloat16 a) {
  uint32_t u = (uint32_t)a << 16;
  return wc_trig_bf16_(a, wc_trig_sign_(wc_tan_odd_(wc_trig_abs_(u)), u));
}

/* ---- the raw forms (exp.h: a block's first pass) -------------------------------
   For |x| <= 2^20, in plain double: k = round(|x| 2/pi) (< 2^19.35, an integer
   held in a double) and r = |x| - k pi/2 by Cody-Waite in three parts: C1 and
   C2 of 33 bits each, so k C1 and k C2 are exact (20 + 33 bits), C3 the rest
   rounded (within 2^-119, k times that 2^-99). |x| - k C1 is exact: both are
   multiples of 2^-32 (|x| >= 1/2 wherever k != 0) and it is below 1. Then
   subtracting k C2 rounds once, k C3 (< 2^-45) once, the last subtraction
   once: r within 2^-52 (|r| + 2^-45) + 2^-97.4 of |x| - k pi/2, which is at
   least 2^-29.21 wherever k != 0 (the float nearest a multiple of pi/2, at the
   top of this file): within 2^-51.9 |r|. sin r and cos r by Taylor's series
   to r^15 and r^16 (|r| <= pi/4 (1 + 2^-40); the first term left out is below
   2^-53.8 |sin r| and 2^-58 |cos r|), Horner in z = r^2 with each operation
   rounded once at most: 2.5 and 2.2 * 2^-53 of each. As |r cot r| <= 1 and
   |r tan r| <= 1 on that range, sin x and cos x (the quadrant's choice and
   sign, exact) are within 2^-50.4 of themselves, and tan x = sin x / cos x
   within 2^-49.4. Above 2^20, at inf and at NaN the raw forms give a NaN: the
   exact forms reduce those. */
#define WC_TRIG_RAW_MAX_ 0x1p20f

/* sin |x| and cos |x| in plain double for |x| <= 2^20 (above, anything). */
WC_INLINE void wc_trig_raw_sc_(float ax, double *s, double *c) {
  WC_CR_CONTRACT_
  double   x = (double)ax, m = x * 0x1.45f306dc9c883p-1 + 0x1.8p52, kd = m - 0x1.8p52;
  uint64_t q = wc_f64_to_bits(m) & 3u;
  double   r = ((x - kd * 0x1.921fb544p+0) - kd * 0x1.0b4611a6p-34) - kd * 0x1.3198a2e037073p-69;
  double   z = r * r;
  double   sr = r + (r * z) * (-0x1.5555555555555p-3 + z * (0x1.1111111111111p-7 +
                z * (-0x1.a01a01a01a01ap-13 + z * (0x1.71de3a556c734p-19 + z * (-0x1.ae64567f544e4p-26 +
                z * (0x1.6124613a86d09p-33 + z * -0x1.ae7f3e733b81fp-41))))));
  double   cr = 1.0 + z * (-0.5 + z * (0x1.5555555555555p-5 + z * (-0x1.6c16c16c16c17p-10 +
                z * (0x1.a01a01a01a01ap-16 + z * (-0x1.27e4fb7789f5cp-22 + z * (0x1.1eed8eff8d898p-29 +
                z * (-0x1.93974a8c07c9dp-37 + z * 0x1.ae7f3e733b81fp-45)))))));
  /* sin |x| = (sin r, cos r, -sin r, -cos r)[q], cos |x| = (cos r, -sin r, -cos r, sin r)[q] */
  *s = wc_sel_f64((q & 2u) != 0, -1.0, 1.0) * wc_sel_f64((q & 1u) != 0, cr, sr);
  *c = wc_sel_f64(((q + 1u) & 2u) != 0, -1.0, 1.0) * wc_sel_f64((q & 1u) != 0, sr, cr);
}

/* y rounded as the raw forms round (exp.h), sign apart: the sign of y, turned
   when odd holds x's sign bit (u: x's bits). */
WC_INLINE float wc_trig_raw_round_(double y, uint32_t u, uint32_t odd, int bad) {
  uint64_t b = wc_f64_to_bits(y);
  float    v = wc_cr_raw_round_(wc_bits_to_f64(b & 0x7fffffffffffffffu), 0.0, bad);
  return wc_bits_to_f32(wc_f32_to_bits(v) ^ ((uint32_t)(b >> 32) & 0x80000000u) ^ (u & odd));
}

WC_INLINE float wc_sin_raw_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    ax = wc_bits_to_f32(u & 0x7fffffffu);
  double   s, c;
  wc_trig_raw_sc_(ax, &s, &c);
  return wc_trig_raw_round_(s, u, 0x80000000u, !(ax <= WC_TRIG_RAW_MAX_));
}
WC_INLINE float wc_cos_raw_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    ax = wc_bits_to_f32(u & 0x7fffffffu);
  double   s, c;
  wc_trig_raw_sc_(ax, &s, &c);
  return wc_trig_raw_round_(c, u, 0u, !(ax <= WC_TRIG_RAW_MAX_));
}
WC_INLINE float wc_tan_raw_f32(float x) {
  uint32_t u = wc_f32_to_bits(x);
  float    ax = wc_bits_to_f32(u & 0x7fffffffu);
  double   s, c;
  wc_trig_raw_sc_(ax, &s, &c);
  return wc_trig_raw_round_(s / c, u, 0x80000000u, !(ax <= WC_TRIG_RAW_MAX_));
}

#ifdef __cplusplus
}
#endif
#endif
