#pragma once

#include <QByteArray>
#include <QFile>
#include <QString>

#include <string>

namespace ckpt {

// File names between the watcher's std::string paths and Qt's, through the
// locale's file-name encoding (bytes that are not UTF-8 survive the round trip).
inline QString qpath(const std::string& path)
{
    return QFile::decodeName(QByteArray::fromStdString(path));
}

inline std::string spath(const QString& path)
{
    return QFile::encodeName(path).toStdString();
}

} // namespace ckpt
