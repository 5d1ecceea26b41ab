#pragma once
// Small checks the engine tests share: a figure's value by key (the test stops when it is missing) and a
// relative comparison with its tolerance stated at the call.
#include "evaluate.h"

#include <QtGlobal>
#include <algorithm>
#include <cmath>
#include <string>

namespace ctwin::test_support {

/// |a - b| <= rel x |b| (b = 0 compares against 1e-300, i.e. exactly).
inline bool near(double a, double b, double rel) {
    return std::abs(a - b) <= rel * std::max(std::abs(b), 1e-300);
}

/// The value of figure `key`; a missing figure stops the test.
inline double fig(const cost::Results& r, const std::string& key) {
    const auto* f = r.figure(key);
    if (!f) qFatal("figure %s missing", key.c_str());
    return f->value;
}

} // namespace ctwin::test_support
