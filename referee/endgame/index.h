// The endgame-database index: a bijection between the distributions of seeds
// over n pits and the integers, ordered by the number of seeds.
//
// A distribution c_0..c_{n-1} with prefix sums P_j = c_0 + ... + c_j is the
// set of "bar" positions b_j = P_j + j in a row of stars and bars, and the
// combinatorial number system ranks such a set as sum_j C(b_j, j + 1). Taken
// over all n prefix sums (the last one is the total k) the sum ranks every
// distribution of any total, those with fewer seeds first:
//     index(c) = sum_{j=0}^{n-1} C(P_j + j, j + 1)
// so the distributions of exactly k seeds occupy [C(k-1+n, n), C(k+n, n)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace kalah::endgame {

class CompositionIndex {
 public:
  // n pits, totals up to max_total seeds. Counts that exceed 64 bits saturate
  // (see fits()).
  CompositionIndex(int n, int max_total);

  int pits() const { return n_; }
  int max_total() const { return max_total_; }
  // Whether every index up to max_total seeds fits in 64 bits.
  bool fits() const { return fits_; }

  // Number of distributions of exactly k seeds, and of fewer than k seeds.
  // offset(k) = C(k - 1 + n, n) is the last pit's term for the total k.
  std::uint64_t count(int k) const { return offset(k + 1) - offset(k); }
  std::uint64_t offset(int k) const { return term(n_ - 1, k); }
  // One past the largest index: offset(max_total + 1).
  std::uint64_t size() const { return offset(max_total_ + 1); }

  // C(P + j, j + 1): the term of pit j for the prefix sum P (0 <= P <= max_total + 1).
  std::uint64_t term(int j, int prefix) const { return table_[j * columns() + prefix]; }
  const std::uint64_t* row(int j) const { return table_.data() + j * columns(); }

  template <class Cell>
  std::uint64_t rank(const Cell* c) const {
    std::uint64_t r = 0;
    int prefix = 0;
    for (int j = 0; j < n_; ++j) {
      prefix += c[j];
      r += term(j, prefix);
    }
    return r;
  }

  // rank() for n = N <= 16 pits given as 16 readable bytes (the cells past N
  // zero): the prefix sums come from two multiplications, and the N table
  // reads are independent of each other. Totals must stay below 256.
  template <int N>
  std::uint64_t rank16(const std::uint8_t* c) const {
    static_assert(N >= 1 && N <= 16);
    constexpr std::uint64_t kOnes = 0x0101010101010101ULL;
    std::uint64_t lo, hi;
    __builtin_memcpy(&lo, c, 8);
    __builtin_memcpy(&hi, c + 8, 8);
    const std::uint64_t prefix_lo = lo * kOnes;  // byte j: c_0 + ... + c_j
    const std::uint64_t prefix_hi = hi * kOnes + (prefix_lo >> 56) * kOnes;
    const std::uint64_t* t = table_.data();
    const int cols = columns();
    std::uint64_t r = 0;
#pragma GCC unroll 16
    for (int j = 0; j < N; ++j) {
      const std::uint64_t word = j < 8 ? prefix_lo : prefix_hi;
      r += t[j * cols + static_cast<int>((word >> (8 * (j & 7))) & 0xff)];
    }
    return r;
  }

  // The distribution with this index; returns its total.
  template <class Cell>
  int unrank(std::uint64_t index, Cell* c) const;

 private:
  int columns() const { return max_total_ + 2; }

  int n_;
  int max_total_;
  bool fits_ = true;
  std::vector<std::uint64_t> table_;
};

template <class Cell>
int CompositionIndex::unrank(std::uint64_t index, Cell* c) const {
  // Peel off the terms from the last pit down: for each j the largest prefix
  // whose term does not exceed what is left (terms grow with the prefix).
  int upper = max_total_;
  int next_prefix = 0;
  int total = 0;
  for (int j = n_ - 1; j >= 0; --j) {
    const std::uint64_t* t = row(j);
    int lo = 0, hi = upper;  // t[lo] <= index holds since t[0] = 0
    while (lo < hi) {
      const int mid = (lo + hi + 1) / 2;
      if (t[mid] <= index)
        lo = mid;
      else
        hi = mid - 1;
    }
    index -= t[lo];
    if (j == n_ - 1)
      total = lo;
    else
      c[j + 1] = static_cast<Cell>(next_prefix - lo);
    next_prefix = lo;
    upper = lo;
  }
  c[0] = static_cast<Cell>(next_prefix);
  return total;
}

}  // namespace kalah::endgame
