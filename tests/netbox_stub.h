#pragma once
// A NetBox stand-in over HTTP for the live-import tests (tests/app/test_netbox_live.cpp, tests/gui/
// test_netbox_menu.cpp): a QTcpServer on 127.0.0.1 answering each request from a callback. Link Qt6::Network.
#include <QHash>
#include <QTcpServer>
#include <QTcpSocket>
#include <functional>
#include <utility>

/// One HTTP/1.1 exchange per connection. `answer` gets the path and the Authorization header and returns
/// the status and body; status 0 means "never answer" (the connection stays open).
class NetBoxStub : public QObject {
public:
    std::function<std::pair<int, QByteArray>(const QByteArray& path, const QByteArray& auth)> answer;

    NetBoxStub() {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, this, [this, s] { onRead(s); });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
    }
    QString base() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    int requests = 0;

private:
    void onRead(QTcpSocket* s) {
        QByteArray& buf = m_buffers[s];
        buf += s->readAll();
        if (!buf.contains("\r\n\r\n")) return;
        const auto lines = buf.left(buf.indexOf("\r\n\r\n")).split('\n');
        const QByteArray path = lines.value(0).split(' ').value(1);
        QByteArray auth;
        for (const auto& l : lines)
            if (l.toLower().startsWith("authorization:")) auth = l.mid(14).trimmed();
        m_buffers.remove(s);
        ++requests;
        const auto [status, body] = answer(path, auth);
        if (status == 0) return; // hang
        s->write("HTTP/1.1 " + QByteArray::number(status) + " X\r\nContent-Type: application/json\r\n" +
                 "Content-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" +
                 body);
        s->disconnectFromHost();
    }
    QTcpServer m_server;
    QHash<QTcpSocket*, QByteArray> m_buffers;
};
