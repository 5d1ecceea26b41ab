#pragma once
// Numeric checks with stated tolerances for Qt Test programs, printing the expression and both values at
// full precision when they fail.
#include <QByteArray>
#include <QtTest>
#include <cmath>

/// |actual - expected| <= rel x |expected|.
#define CTWIN_COMPARE_REL(actual, expected, rel)                                                             \
    do {                                                                                                     \
        const double a_ = (actual);                                                                          \
        const double e_ = (expected);                                                                        \
        QVERIFY2(std::abs(a_ - e_) <= (rel)*std::abs(e_),                                                    \
                 QByteArray(QByteArray(#actual) + " = " + QByteArray::number(a_, 'g', 17) + ", expected " +  \
                            QByteArray::number(e_, 'g', 17) + ", relative tolerance " +                      \
                            QByteArray::number(static_cast<double>(rel), 'g', 3))                            \
                     .constData());                                                                          \
    } while (false)

/// |actual - expected| <= tol.
#define CTWIN_COMPARE_ABS(actual, expected, tol)                                                             \
    do {                                                                                                     \
        const double a_ = (actual);                                                                          \
        const double e_ = (expected);                                                                        \
        QVERIFY2(std::abs(a_ - e_) <= (tol),                                                                 \
                 QByteArray(QByteArray(#actual) + " = " + QByteArray::number(a_, 'g', 17) + ", expected " +  \
                            QByteArray::number(e_, 'g', 17) + ", absolute tolerance " +                      \
                            QByteArray::number(static_cast<double>(tol), 'g', 3))                            \
                     .constData());                                                                          \
    } while (false)
