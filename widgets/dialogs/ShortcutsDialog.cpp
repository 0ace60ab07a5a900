#include "dialogs/ShortcutsDialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QSet>
#include <QShortcut>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTreeView>
#include <QVBoxLayout>

#include <functional>

namespace ckpt {

namespace {
QString keysText(const QList<QKeySequence>& keys)
{
    QStringList texts;
    for (const QKeySequence& k : keys)
        if (!k.isEmpty())
            texts << k.toString(QKeySequence::NativeText);
    return texts.join(QStringLiteral(", "));
}
} // namespace

ShortcutsDialog::ShortcutsDialog(QWidget* window, QWidget* parent)
    : QDialog(parent), m_window(window), m_search(new QLineEdit(this)), m_view(new QTreeView(this)),
      m_model(new QStandardItemModel(this)), m_proxy(new QSortFilterProxyModel(this))
{
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto* layout = new QVBoxLayout(this);
    m_search->setPlaceholderText(tr("Search actions or keys (e.g. verify, Ctrl+L)"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search shortcuts"));
    layout->addWidget(m_search);
    m_proxy->setSourceModel(m_model);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(-1);
    // A match on a menu's name shows all of that menu; a match on an action
    // shows it under its menu.
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setAutoAcceptChildRows(true);
    m_view->setModel(m_proxy);
    m_view->setRootIsDecorated(false);
    m_view->setItemsExpandable(false);
    m_view->setUniformRowHeights(true);
    m_view->setAlternatingRowColors(true);
    m_view->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_view->header()->setStretchLastSection(true);
    layout->addWidget(m_view, 1);
    auto* note = new QLabel(tr("Shortcuts work anywhere in the window unless a list or text field "
                               "uses the key itself."),
                            this);
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(note);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString& text) {
        m_proxy->setFilterFixedString(text.trimmed());
        m_view->expandAll();
    });
    resize(560, 620);
    refill();
}

QString ShortcutsDialog::plainText(const QString& actionText)
{
    QString t = actionText;
    t.replace(QStringLiteral("&&"), QChar(0x1));
    t.remove(QLatin1Char('&'));
    t.replace(QChar(0x1), QLatin1Char('&'));
    if (t.endsWith(QChar(0x2026)))
        t.chop(1);
    else if (t.endsWith(QStringLiteral("...")))
        t.chop(3);
    return t.trimmed();
}

QList<ShortcutsDialog::Entry> ShortcutsDialog::collect(const QWidget* window)
{
    QList<Entry> entries;
    QSet<const QObject*> seen;
    const auto add = [&](QAction* a, const QString& group) {
        if (!a || a->isSeparator() || a->shortcuts().isEmpty() || seen.contains(a))
            return;
        seen.insert(a);
        const QString text = plainText(a->text());
        // Qt's default tooltip is the text again: only a real explanation is kept.
        const QString tip = plainText(a->toolTip()) == text ? QString() : a->toolTip();
        entries.append({group, text, keysText(a->shortcuts()), tip});
    };
    std::function<void(const QMenu*, const QString&)> walk = [&](const QMenu* menu,
                                                                 const QString& path) {
        for (QAction* a : menu->actions()) {
            if (const QMenu* sub = a->menu())
                walk(sub, path + QStringLiteral(" ▸ ") + plainText(sub->title()));
            else
                add(a, path);
        }
    };
    if (const auto* bar = window->findChild<QMenuBar*>())
        for (QAction* a : bar->actions())
            if (const QMenu* m = a->menu())
                walk(m, plainText(m->title()));
    const QString other = tr("Other");
    for (QAction* a : window->findChildren<QAction*>())
        add(a, other);
    for (const QShortcut* s : window->findChildren<QShortcut*>())
        if (!s->whatsThis().isEmpty() && !keysText(s->keys()).isEmpty())
            entries.append({other, s->whatsThis(), keysText(s->keys()), {}});
    return entries;
}

void ShortcutsDialog::refill()
{
    m_model->clear();
    m_model->setHorizontalHeaderLabels({tr("Action"), tr("Shortcut")});
    QHash<QString, QStandardItem*> groups;
    for (const Entry& e : collect(m_window)) {
        QStandardItem*& group = groups[e.group];
        if (!group) {
            group = new QStandardItem(e.group);
            QFont bold = font();
            bold.setBold(true);
            group->setFont(bold);
            m_model->appendRow({group, new QStandardItem});
        }
        auto* action = new QStandardItem(e.action);
        action->setToolTip(e.toolTip);
        auto* keys = new QStandardItem(e.keys);
        keys->setToolTip(e.toolTip);
        group->appendRow({action, keys});
    }
    m_view->expandAll();
    m_view->resizeColumnToContents(0);
    m_view->setColumnWidth(0, m_view->columnWidth(0) + 24);
}

} // namespace ckpt
