// `clustertwin-cli import-netbox --url` against a NetBox stand-in served from this test over HTTP
// (QTcpServer on 127.0.0.1; issue 33 item 1): pagination through `next`, the token from a file or
// $NETBOX_TOKEN, and what a live server can do wrong — refuse the token, not listen, never answer, answer
// with something that is not JSON, point `next` elsewhere. Each refusal exits 3 and writes no design.
// Responses follow NetBox 4.x's list shape (count, next, previous, results) and the fields the folder
// import reads (tests/cost/test_netbox.cpp holds the same objects).
#include "../netbox_stub.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>
#include <functional>

namespace {

const QString kCli = QStringLiteral(CTWIN_CLI_PATH);

struct Run {
    int code = -1;
    QString out, err;
};

/// Runs the CLI while the event loop keeps serving the stub.
Run runCli(const QStringList& args,
           const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(kCli, args);
    if (!p.waitForStarted(10000)) return {};
    QElapsedTimer t;
    t.start();
    while (p.state() != QProcess::NotRunning && t.elapsed() < 60000)
        QTest::qWait(10);
    if (p.state() != QProcess::NotRunning) {
        p.kill();
        p.waitForFinished();
        return {-1, {}, QStringLiteral("timeout")};
    }
    return {p.exitCode(), QString::fromUtf8(p.readAllStandardOutput()),
            QString::fromUtf8(p.readAllStandardError())};
}

QByteArray listResponse(int count, const QString& next, const QByteArray& results) {
    return "{\"count\": " + QByteArray::number(count) +
           ", \"next\": " + (next.isEmpty() ? QByteArray("null") : "\"" + next.toUtf8() + "\"") +
           ", \"previous\": null, \"results\": [" + results + "]}";
}

const QByteArray kSite = R"({"id": 1, "name": "Austin", "slug": "austin", "latitude": "30.267200",
    "longitude": "-97.743100", "comments": ""})";
QByteArray rack(int id) {
    return QStringLiteral(R"({"id": %1, "name": "R%1", "site": {"id": 1, "name": "Austin", "slug": "austin"},
        "location": null, "rack_type": {"id": 5, "model": "Oberon", "slug": "nv-oberon-gb200"}, "u_height": 48})")
        .arg(id)
        .toUtf8();
}

} // namespace

class TestNetBoxLive : public QObject {
    Q_OBJECT
    QTemporaryDir m_dir;
    NetBoxStub m_stub;
    QString m_token, m_map;

    /// A well-behaved NetBox: one site, three racks in two pages, 404 for the optional lists; "Token abc123".
    void serveGood(const QString& nextOverride = {}) {
        m_stub.answer = [this, nextOverride](const QByteArray& path, const QByteArray& auth) {
            if (auth != "Token abc123")
                return std::make_pair(403, QByteArray(R"({"detail": "Invalid token."})"));
            if (path.startsWith("/api/dcim/sites/")) return std::make_pair(200, listResponse(1, {}, kSite));
            if (path == "/api/dcim/racks/?limit=1000")
                return std::make_pair(
                    200, listResponse(3,
                                      nextOverride.isEmpty()
                                          ? m_stub.base() + "/api/dcim/racks/?limit=1000&offset=2"
                                          : nextOverride,
                                      rack(100) + "," + rack(101)));
            if (path == "/api/dcim/racks/?limit=1000&offset=2")
                return std::make_pair(200, listResponse(3, {}, rack(102)));
            return std::make_pair(404, QByteArray(R"({"detail": "Not found."})"));
        };
    }

private slots:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_token = m_dir.filePath("token");
        QFile t(m_token);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write("abc123\n");
        t.close();
        m_map = m_dir.filePath("map.json");
        QFile m(m_map);
        QVERIFY(m.open(QIODevice::WriteOnly));
        m.write(R"({"rack_types": {"nv-oberon-gb200": "gb200-nvl72"}})");
    }

    /// Every page read (the racks' second page through `next`), the optional lists' 404s logged, the design
    /// written with its three racks; the saved pages read again as a folder give the same design.
    void importsAPaginatedNetBox() {
        serveGood();
        const QString out = m_dir.filePath("live.json"), saved = m_dir.filePath("saved");
        const auto r = runCli({"import-netbox", "--url", m_stub.base() + "/", "--token-file", m_token,
                               "--mapping", m_map, "--save-responses", saved, "--out", out});
        QVERIFY2(r.code == 0, qPrintable(r.err));
        QVERIFY2(r.out.contains("fetched dcim/racks/: 3 objects in 2 pages"), qPrintable(r.out));
        QVERIFY(r.out.contains("NetBox has no dcim/locations/ (HTTP 404)"));
        QVERIFY2(r.out.contains("3 racks"), qPrintable(r.out));
        QVERIFY(QFile::exists(saved + "/dcim/racks/00002.json"));
        const auto again =
            runCli({"import-netbox", saved, "--mapping", m_map, "--out", m_dir.filePath("again.json")});
        QCOMPARE(again.code, 0);
        QFile a(out), b(m_dir.filePath("again.json"));
        QVERIFY(a.open(QIODevice::ReadOnly) && b.open(QIODevice::ReadOnly));
        QCOMPARE(a.readAll(), b.readAll());
        // The token may come from the environment instead of a file.
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("NETBOX_TOKEN", "abc123");
        QCOMPARE(runCli({"import-netbox", "--url", m_stub.base(), "--mapping", m_map, "--out",
                         m_dir.filePath("env.json")},
                        env)
                     .code,
                 0);
    }

    /// What a live server can do wrong: each exit 3, the message names the URL and the problem, no design.
    void refusesWhatALiveServerGetsWrong() {
        const QString out = m_dir.filePath("bad.json");
        const auto expectRefusal = [&](const QStringList& extra, const char* fragment,
                                       const QProcessEnvironment& env =
                                           QProcessEnvironment::systemEnvironment()) {
            QFile::remove(out);
            const auto r = runCli(QStringList{"import-netbox", "--out", out} + extra, env);
            QVERIFY2(r.code == 3, qPrintable(QString::number(r.code) + " " + r.err));
            QVERIFY2(r.err.contains(QString::fromUtf8(fragment)), qPrintable(r.err));
            QVERIFY(!QFile::exists(out));
        };
        serveGood();
        QFile wrong(m_dir.filePath("wrong"));
        QVERIFY(wrong.open(QIODevice::WriteOnly));
        wrong.write("nope\n");
        wrong.close();
        expectRefusal({"--url", m_stub.base(), "--token-file", wrong.fileName()},
                      "refused the token (HTTP 403)");
        auto noToken = QProcessEnvironment::systemEnvironment();
        noToken.remove("NETBOX_TOKEN");
        expectRefusal({"--url", m_stub.base()}, "no API token", noToken);
        // A port nothing listens on (the stub's own, after a second server took and released one).
        quint16 closed = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            closed = probe.serverPort();
        }
        expectRefusal({"--url", QStringLiteral("http://127.0.0.1:%1").arg(closed), "--token-file", m_token},
                      "cannot reach NetBox");
        // `next` pointing at another host, or out of the list through a dot segment.
        serveGood(QStringLiteral("http://evil.example/api/dcim/racks/?offset=2"));
        expectRefusal({"--url", m_stub.base(), "--token-file", m_token}, "is outside");
        serveGood(m_stub.base() + "/api/dcim/racks/../../users/?offset=2");
        expectRefusal({"--url", m_stub.base(), "--token-file", m_token}, "is outside");
        // Saved pages go to a new or empty folder only.
        serveGood();
        expectRefusal({"--url", m_stub.base(), "--token-file", m_token, "--save-responses", m_dir.path()},
                      "new or empty folder");
        // Not JSON.
        m_stub.answer = [](const QByteArray&, const QByteArray&) {
            return std::make_pair(200, QByteArray("<html>"));
        };
        expectRefusal({"--url", m_stub.base(), "--token-file", m_token}, "not JSON");
        // A server that accepts and never answers: --timeout 1 gives up after a second.
        m_stub.answer = [](const QByteArray&, const QByteArray&) { return std::make_pair(0, QByteArray()); };
        QElapsedTimer t;
        t.start();
        expectRefusal({"--url", m_stub.base(), "--token-file", m_token, "--timeout", "1"},
                      "no answer within 1 s");
        QVERIFY(t.elapsed() < 20000);
        // Not a URL ClusterTwin reads from.
        expectRefusal({"--url", "file:///etc/passwd", "--token-file", m_token}, "http:// or https://");
    }

    /// Usage: a folder and --url together, or --token-file without --url: exit 2.
    void usage() {
        QCOMPARE(
            runCli({"import-netbox", m_dir.path(), "--url", m_stub.base(), "--out", m_dir.filePath("u.json")})
                .code,
            2);
        QCOMPARE(runCli({"import-netbox", m_dir.path(), "--token-file", m_token, "--out",
                         m_dir.filePath("u.json")})
                     .code,
                 2);
        QCOMPARE(runCli({"import-netbox", "--url", m_stub.base(), "--timeout", "0", "--out",
                         m_dir.filePath("u.json")})
                     .code,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestNetBoxLive)
#include "test_netbox_live.moc"
