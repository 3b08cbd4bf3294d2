/* The classic relational examples on LLVM IR (absinthe's cli/tests/llvm_relational.rs):
   `absinthe analyze relational.ll --analysis octagon` against `--analysis interval`.
   relational.ll is this file compiled by
     clang-15 -S -emit-llvm -O0 -Xclang -disable-O0-optnone -fno-discard-value-names \
       relational.c -o - | opt-15 -S -passes='function(mem2reg,instnamer)' -o relational.ll */

/* `a[i]` for `0 <= i < n`, `a` a variable-length array of `n` elements: in bounds. */
int fill(int n) {
    int a[n];
    int s = 0;
    for (int i = 0; i < n; i++) {
        a[i] = i;
        s += a[i];
    }
    return s;
}

/* `x = y; x++`: `x > y`, so the last return is dead. The increment is `add nsw`, which the
   lowering computes in 64 bits without wrapping it to 32: `x - y = 1` exactly. */
int copy_increment(int y) {
    int x = y;
    x++;
    if (x > y)
        return 1;
    return 2;
}

/* The same on `unsigned`, whose increment wraps (no `nsw`): `x` is 0 when `y` is
   UINT_MAX, so nothing is dead. */
int copy_increment_wraps(unsigned y) {
    unsigned x = y;
    x++;
    if (x > y)
        return 1;
    return 2;
}

/* Bounded first, the wrap to 32 bits cannot change the sum: dead again. */
int copy_increment_bounded(unsigned y) {
    if (y >= 1000)
        return 0;
    unsigned x = y;
    x++;
    if (x > y)
        return 1;
    return 2;
}

/* An unsigned loop (`icmp ult`, `zext` indices, wrapping `add`) over a variable-length
   array whose length is bounded first. */
unsigned fill_unsigned(unsigned n) {
    if (n > 100)
        return 0;
    unsigned a[n];
    unsigned s = 0;
    for (unsigned i = 0; i < n; i++) {
        a[i] = i;
        s += a[i];
    }
    return s;
}

/* Two indices moving together: `j = i + 1` stays below the length `n + 1`. */
int pairs(int n) {
    if (n < 0 || n > 1000)
        return 0;
    int a[n + 1];
    a[0] = 0;
    for (int i = 0; i < n; i++) {
        int j = i + 1;
        a[j] = a[i] + 1;
    }
    return a[n];
}

/* A fixed-size array: its length is a constant, and intervals prove its indices too. */
int table(int k) {
    int t[16];
    for (int i = 0; i < 16; i++)
        t[i] = i * i;
    if (k >= 0 && k < 16)
        return t[k];
    return -1;
}

/* Two loads the lowering cannot follow: both read the shared unknown value, and the relation
   must not tie them together (one equal to 5 says nothing of the other): nothing is dead. */
int two_loads(int *p, int *q) {
    if (*p == 5) {
        if (*q == 7)
            return 1;
        return 2;
    }
    return 0;
}
