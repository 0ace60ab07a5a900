#include "dialogs/UserGuideDialog.h"

#include <QAbstractTextDocumentLayout>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

namespace ckpt {

UserGuideDialog::UserGuideDialog(QWidget* parent)
    : QDialog(parent), m_browser(new QTextBrowser(this))
{
    setWindowTitle(tr("Ckpt Studio User Guide"));
    auto* layout = new QVBoxLayout(this);
    m_browser->setOpenExternalLinks(true);
    m_browser->setAccessibleName(tr("User guide"));
    layout->addWidget(m_browser, 1);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    resize(780, 720);
}

bool UserGuideDialog::load(const QString& file)
{
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) {
        m_file.clear();
        m_browser->setHtml(tr("<h2>The user guide cannot be read</h2><p><tt>%1</tt>: %2</p>")
                               .arg(QDir::toNativeSeparators(file).toHtmlEscaped(),
                                    f.errorString().toHtmlEscaped()));
        return false;
    }
    m_file = file;
    const QString dir = QFileInfo(file).absolutePath();
    // The guide's screenshots and links to other docs are relative to its folder.
    m_browser->setSearchPaths({dir});
    m_browser->document()->setBaseUrl(QUrl::fromLocalFile(dir + QLatin1Char('/')));
    m_browser->setMarkdown(QString::fromUtf8(f.readAll()));
    return true;
}

void UserGuideDialog::showNotFound(const QStringList& lookedIn)
{
    m_file.clear();
    QString list;
    for (const QString& place : lookedIn)
        list += QStringLiteral("<li><tt>%1</tt></li>")
                    .arg(QDir::toNativeSeparators(place).toHtmlEscaped());
    m_browser->setHtml(
        tr("<h2>The user guide was not found</h2>"
           "<p>Ckpt Studio looked for <tt>user-guide.md</tt> in:</p><ul>%1</ul>"
           "<p>Install the documentation with the program (<tt>cmake --install</tt> puts it in "
           "<tt>share/doc/ckpt-studio</tt>), or set <tt>CKPT_DOCS_DIR</tt> to the folder that "
           "holds it.</p>")
            .arg(list));
}

QString UserGuideDialog::showSection(const QStringList& keywords)
{
    QTextDocument* doc = m_browser->document();
    for (const QString& keyword : keywords) {
        const QRegularExpression word(QStringLiteral("\\b") + QRegularExpression::escape(keyword),
                                      QRegularExpression::CaseInsensitiveOption);
        for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
            if (b.blockFormat().headingLevel() == 0 || !word.match(b.text()).hasMatch())
                continue;
            m_browser->setTextCursor(QTextCursor(b));
            // The section starts at the top of the view, not merely somewhere on screen.
            const QRectF r = doc->documentLayout()->blockBoundingRect(b);
            m_browser->verticalScrollBar()->setValue(int(r.top()));
            return b.text();
        }
    }
    m_browser->moveCursor(QTextCursor::Start);
    m_browser->verticalScrollBar()->setValue(0);
    return {};
}

QString UserGuideDialog::currentHeading() const
{
    for (QTextBlock b = m_browser->textCursor().block(); b.isValid(); b = b.previous())
        if (b.blockFormat().headingLevel() > 0)
            return b.text();
    return {};
}

} // namespace ckpt
