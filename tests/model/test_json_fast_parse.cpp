// The quick JSON parser of design files (model/json_fast_parse.h): what it accepts it parses exactly as
// nlohmann::ordered_json::parse does (same value, same number types, same key order); everything else it
// leaves to nlohmann, so error messages do not change.
#include "json_fast_parse.h"

#include <QDir>
#include <QtTest>
#include <fstream>
#include <string>

using ojson = nlohmann::ordered_json;

namespace {
const std::string kData = CTWIN_SOURCE_DATA_DIR;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

/// Equal values of equal types at every node (nlohmann's == calls unsigned 1 and signed 1 equal), keys in
/// the same order.
bool identical(const ojson& a, const ojson& b) {
    if (a.type() != b.type()) return false;
    if (a.is_object()) {
        if (a.size() != b.size()) return false;
        auto ib = b.begin();
        for (auto ia = a.begin(); ia != a.end(); ++ia, ++ib)
            if (ia.key() != ib.key() || !identical(*ia, *ib)) return false;
        return true;
    }
    if (a.is_array()) {
        if (a.size() != b.size()) return false;
        for (size_t i = 0; i < a.size(); ++i)
            if (!identical(a[i], b[i])) return false;
        return true;
    }
    if (a.is_number_float()) // bit for bit (also -0.0)
        return std::memcmp(&a.get_ref<const double&>(), &b.get_ref<const double&>(), sizeof(double)) == 0;
    return a == b;
}
} // namespace

class TestJsonFastParse : public QObject {
    Q_OBJECT
private slots:
    /// Every shipped design, catalog, assumption and exploration file parses quickly and identically.
    void shippedFilesParseIdentically() {
        int files = 0;
        for (const char* sub : {"reference", "catalog", "explore", "reference/specs", "."}) {
            const QDir dir(QString::fromStdString(kData + "/" + sub));
            for (const QString& f : dir.entryList({"*.json"}, QDir::Files, QDir::Name)) {
                const std::string text = readAll(dir.filePath(f).toStdString());
                const auto quick = ctwin::model::fastParseJson(text);
                QVERIFY2(quick.has_value(), qPrintable(f));
                QVERIFY2(identical(*quick, ojson::parse(text)), qPrintable(f));
                ++files;
            }
        }
        QVERIFY(files >= 20);
    }

    /// Accepted corner cases equal nlohmann's value and types.
    void cornerCasesMatch_data() {
        QTest::addColumn<QByteArray>("text");
        for (const char* t : {"{}",
                              "[]",
                              " [ ] ",
                              "0",
                              "-0",
                              "-0.0",
                              "1.5E+3",
                              "1e-400",
                              "18446744073709551615",
                              "18446744073709551616",
                              "-9223372036854775808",
                              "-9223372036854775809",
                              "9223372036854775808",
                              "\"a\\\"b\\\\c\\/d\\b\\f\\n\\r\\t\"",
                              "[true,false,null]",
                              "{\"x\":[{\"y\":[1,2.5,-3]}]}",
                              "\"\x7f\"",
                              "\"Z\xc3\xbcrich \xe2\x80\x93 \xf0\x9f\x98\x80\"",
                              "\r\n\t{\"k\" : \"v\"}\n"})
            QTest::newRow(t) << QByteArray(t);
    }
    void cornerCasesMatch() {
        QFETCH(QByteArray, text);
        const std::string t = text.toStdString();
        const auto quick = ctwin::model::fastParseJson(t);
        QVERIFY(quick.has_value());
        QVERIFY2(identical(*quick, ojson::parse(t)), quick->dump().c_str());
    }

    /// Malformed text and what the quick parser does not handle go to nlohmann (its messages).
    void leavesTheRestToNlohmann_data() {
        QTest::addColumn<QByteArray>("text");
        for (const char* t : {"",
                              " ",
                              "[1,2,]",
                              "{\"a\":1,}",
                              "01",
                              "1.",
                              ".5",
                              "1e",
                              "-",
                              "+1",
                              "1x",
                              "{} x",
                              "\"\\u0041\"",
                              "\"\\x\"",
                              "\"\xc3\"",
                              "\"\xc0\xaf\"",
                              "\"\xed\xa0\x80\"",
                              "\"\xf4\x90\x80\x80\"",
                              "\"a\tb\"",
                              "1e400",
                              "-1e400",
                              "tru",
                              "nul",
                              "{\"a\" 1}",
                              "{1:2}",
                              "[1 2]",
                              "\"open",
                              "\xef\xbb\xbf{}",
                              "{\"a\":1,\"b\":2,\"a\":3}"})
            QTest::newRow(t) << QByteArray(t);
        QTest::newRow("deep") << QByteArray(200, '[') + QByteArray(200, ']');
    }
    void leavesTheRestToNlohmann() {
        QFETCH(QByteArray, text);
        QVERIFY(!ctwin::model::fastParseJson(text.toStdString()).has_value());
    }

    /// A key given twice in one object is a parse error naming the key, in any object at any depth; the
    /// same key in sibling or nested objects is not.
    void duplicateKeys() {
        using ctwin::model::parseJson;
        for (const char* t : {"{\"a\":1,\"b\":2,\"a\":3}", "[{\"x\":{\"k\":1}},{\"k\":[{\"q\":1,\"q\":2}]}]",
                              "{\"a\":{},\"a\":[]}", "{\"\\u0061\":1,\"a\":2}"}) {
            try {
                parseJson(t);
                QFAIL(t);
            } catch (const nlohmann::json::parse_error& e) {
                QVERIFY2(std::string(e.what()).find("is given twice in one object") != std::string::npos, e.what());
            }
            QVERIFY_THROWS_EXCEPTION(nlohmann::json::parse_error, parseJson<nlohmann::json>(t));
        }
        QVERIFY(parseJson("[{\"a\":1},{\"a\":2},{\"b\":{\"a\":3}}]").is_array());
        QVERIFY(parseJson("{\"a\":{\"a\":{\"a\":1}}}").is_object());
    }

    /// invalidUtf8 accepts what nlohmann's lexer accepts in a string and points at the first bad byte.
    void utf8Check() {
        using ctwin::model::invalidUtf8;
        constexpr auto npos = std::string_view::npos;
        for (const char* ok : {"", "plain", "Z\xc3\xbcrich", "\xe2\x80\x93", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"})
            QCOMPARE(invalidUtf8(ok), npos);
        QCOMPARE(invalidUtf8("A\xff" "B"), size_t{1});           // not a lead byte
        QCOMPARE(invalidUtf8("ab\xc0\xaf"), size_t{2});         // overlong '/'
        QCOMPARE(invalidUtf8("\xed\xa0\x80"), size_t{0});      // a surrogate
        QCOMPARE(invalidUtf8("x\xf4\x90\x80\x80"), size_t{1}); // beyond U+10FFFF
        QCOMPARE(invalidUtf8("\xc3"), size_t{0});               // cut short
        // The same verdict as nlohmann on a JSON string holding the bytes.
        for (const char* bytes : {"\xc3\xbc", "\xff", "\xc0\xaf", "\xe0\x80\x80", "\xf0\x9f\x98"}) {
            const std::string json = std::string("\"") + bytes + "\"";
            const bool nlohmannAccepts = !ojson::parse(json, nullptr, false).is_discarded();
            QCOMPARE(invalidUtf8(bytes) == npos, nlohmannAccepts);
        }
    }

    /// The nesting limit (kMaxJsonNesting = 64 levels): the scan counts brackets outside strings only,
    /// and the first bracket past the limit is the one reported.
    void nestingLimit() {
        using ctwin::model::excessJsonNesting;
        constexpr auto npos = std::string_view::npos;
        const auto nest = [](int n, const std::string& inner = "1") {
            return std::string(static_cast<size_t>(n), '[') + inner + std::string(static_cast<size_t>(n), ']');
        };
        QCOMPARE(excessJsonNesting(nest(64)), npos);
        QCOMPARE(excessJsonNesting(nest(65)), size_t{64}); // the 65th '['
        QCOMPARE(excessJsonNesting(nest(63, "{\"a\":1}")), npos);
        QCOMPARE(excessJsonNesting(nest(64, "{\"a\":1}")), size_t{64});
        // Sibling containers do not add up; brackets in strings (also after an escaped quote) do not count.
        std::string siblings = "[";
        for (int i = 0; i < 1000; ++i) siblings += nest(60) + ",";
        siblings += "1]";
        QCOMPARE(excessJsonNesting(siblings), npos);
        QCOMPARE(excessJsonNesting("[\"" + std::string(500, '[') + "\"]"), npos);
        QCOMPARE(excessJsonNesting("[\"\\\"" + std::string(500, '{') + "\"]"), npos);
        QCOMPARE(excessJsonNesting("[\"\\\\\"," + nest(64) + "]"), size_t{69}); // "\\" ends before the '['
        // Unbalanced closers do not make room for deeper nesting.
        QCOMPARE(excessJsonNesting("]]]]" + nest(65)), size_t{68});

        // 64 levels parse (the quick parser hands them to nlohmann, which accepts them); 65 are refused
        // with nlohmann's parse_error, naming line and column of the bracket.
        QVERIFY(ctwin::model::parseJson(nest(64)).is_array());
        try {
            ctwin::model::parseJson("{\n \"a\": " + nest(70) + "}");
            QFAIL("65 levels were accepted");
        } catch (const nlohmann::json::parse_error& e) {
            QVERIFY2(std::string(e.what()).find("line 2, column 70: syntax error while parsing value - nesting "
                                                "deeper than 64 levels") != std::string::npos,
                     e.what());
        }
        // A 200,000-level document is refused before nlohmann builds it (it used to overflow the stack).
        QVERIFY_THROWS_EXCEPTION(nlohmann::json::parse_error, ctwin::model::parseJson(nest(200000)));
    }
};

QTEST_APPLESS_MAIN(TestJsonFastParse)
#include "test_json_fast_parse.moc"
