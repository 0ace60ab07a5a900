#pragma once

#include "liveness/Liveness.h"

#include <QString>
#include <QTest>

// ckpt::toString(LiveState) returns a string_view, which QCOMPARE cannot print.
#define QCOMPARE_STATE(actual, expected)                                                           \
    do {                                                                                           \
        const ckpt::LiveState a_ = (actual);                                                       \
        const ckpt::LiveState e_ = (expected);                                                     \
        QVERIFY2(a_ == e_,                                                                         \
                 qPrintable(QStringLiteral("%1, expected %2")                                      \
                                .arg(ckpt::toString(a_).data(), ckpt::toString(e_).data())));      \
    } while (false)
