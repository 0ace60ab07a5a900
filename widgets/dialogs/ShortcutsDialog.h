#pragma once

#include <QDialog>
#include <QList>

class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTreeView;

namespace ckpt {

// Help ▸ Keyboard Shortcuts: every action of a window that has a shortcut,
// grouped by the menu that holds it. The list is read from the actions when
// the dialog is filled, so it can never drift from what the keys really do.
class ShortcutsDialog final : public QDialog
{
    Q_OBJECT
public:
    struct Entry
    {
        QString group;  // "Edit", "File ▸ Open Recent", or "Other" outside the menus
        QString action; // its text without mnemonic or ellipsis
        QString keys;   // every shortcut, native text, comma-separated
        QString toolTip;
    };

    explicit ShortcutsDialog(QWidget* window, QWidget* parent = nullptr);

    // Every QAction below `window` with a shortcut (menus first, in menu order),
    // and every QShortcut that says what it does (its whatsThis).
    static QList<Entry> collect(const QWidget* window);
    static QString plainText(const QString& actionText);

    // Reads the window's actions again.
    void refill();
    QTreeView* view() const { return m_view; }
    QLineEdit* searchEdit() const { return m_search; }

private:
    QWidget* m_window;
    QLineEdit* m_search;
    QTreeView* m_view;
    QStandardItemModel* m_model;
    QSortFilterProxyModel* m_proxy;
};

} // namespace ckpt
