// Calls f.template operator()<M>() for the runtime pit count m (1..16), so
// that the search and the database builder are compiled for each board size.
#pragma once

#include <cassert>
#include <utility>

#include "referee/rules/variant.h"

namespace kalah::endgame {

template <class F, int... Ms>
decltype(auto) dispatch_impl(int m, F&& f, std::integer_sequence<int, Ms...>) {
  using R = decltype(f.template operator()<1>());
  if constexpr (std::is_void_v<R>) {
    ((m == Ms + 1 ? (f.template operator()<Ms + 1>(), true) : false) || ...);
  } else {
    R result{};
    ((m == Ms + 1 ? (result = f.template operator()<Ms + 1>(), true) : false) || ...);
    return result;
  }
}

template <class F>
decltype(auto) dispatch_pits(int m, F&& f) {
  assert(m >= 1 && m <= Variant::kMaxPits);
  return dispatch_impl(m, std::forward<F>(f), std::make_integer_sequence<int, Variant::kMaxPits>{});
}

}  // namespace kalah::endgame
