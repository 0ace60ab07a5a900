#pragma once

#include "common/SharedBlock.h"
#include "model/Epoch.h"

#include <cstddef>
#include <initializer_list>
#include <utility>
#include <vector>

namespace ckpt {

// A run's epochs, sorted by number: a std::vector<Epoch> whose copies share
// one buffer (copy-on-write, thread-safe reference count). The window's run
// registry and the watcher thread each hold every run; with 100,000 epochs a
// second deep copy was half of the memory a loaded epoch costs.
// Reading never copies: iterators are always const. Writing (edit(), a
// non-const operator[], push_back, insert, ...) first makes the buffer this
// list's own.
// As with every copy-on-write container, a reference or iterator obtained
// through non-const access must not be written through after the list was copied.
class EpochList
{
public:
    using Vector = std::vector<Epoch>;
    using value_type = Epoch;
    using size_type = std::size_t;
    using difference_type = std::ptrdiff_t;
    using reference = Epoch&;
    using const_reference = const Epoch&;
    using iterator = Vector::iterator; // what the writing calls return
    using const_iterator = Vector::const_iterator;
    using reverse_iterator = Vector::reverse_iterator;
    using const_reverse_iterator = Vector::const_reverse_iterator;

    EpochList() noexcept;
    // Implicit on purpose: `run.epochs = {...}`, a vector built by a layout.
    EpochList(Vector epochs);
    EpochList(std::initializer_list<Epoch> epochs) : EpochList(Vector(epochs)) {}
    EpochList(const EpochList& other) noexcept;
    EpochList(EpochList&& other) noexcept;
    EpochList& operator=(const EpochList& other) noexcept;
    EpochList& operator=(EpochList&& other) noexcept;
    ~EpochList();

    // Read access: never copies.
    const Vector& items() const;
    operator const Vector&() const { return items(); }
    bool empty() const { return items().empty(); }
    size_type size() const { return items().size(); }
    const_iterator begin() const { return items().begin(); }
    const_iterator end() const { return items().end(); }
    const_iterator cbegin() const { return items().begin(); }
    const_iterator cend() const { return items().end(); }
    const_reverse_iterator rbegin() const { return items().rbegin(); }
    const_reverse_iterator rend() const { return items().rend(); }
    const Epoch& operator[](size_type i) const { return items()[i]; }
    const Epoch& at(size_type i) const { return items().at(i); }
    const Epoch& front() const { return items().front(); }
    const Epoch& back() const { return items().back(); }

    // Write access: the buffer becomes this list's own first.
    // Iterating is reading, whatever the constness: `for (const Epoch& e :
    // run.epochs)` never copies; loops that write go through edit().
    Vector& edit();
    Epoch& operator[](size_type i) { return edit()[i]; }
    Epoch& at(size_type i) { return edit().at(i); }
    Epoch& front() { return edit().front(); }
    Epoch& back() { return edit().back(); }
    void reserve(size_type n) { edit().reserve(n); }
    void shrink_to_fit();
    void clear();
    void push_back(const Epoch& epoch) { edit().push_back(epoch); }
    void push_back(Epoch&& epoch) { edit().push_back(std::move(epoch)); }
    template <typename... Args> Epoch& emplace_back(Args&&... args)
    {
        return edit().emplace_back(std::forward<Args>(args)...);
    }
    void pop_back() { edit().pop_back(); }
    void resize(size_type n) { edit().resize(n); }
    // Positions may come from either kind of access (taken before the copy was made).
    iterator insert(const_iterator pos, Epoch epoch);
    iterator erase(const_iterator pos);
    iterator erase(const_iterator first, const_iterator last);
    template <typename Pred> size_type eraseIf(Pred pred) { return std::erase_if(edit(), pred); }

    // A list its owner is done with, kept for the next list this thread
    // builds (takeRecycled): read into again after Epoch::clear(), its epochs'
    // strings, vectors and records need no new memory, so loading run after
    // run (`ckpt scan --json` renders each run and drops it) allocates and
    // frees almost nothing per epoch. Kept only when no copy shares it, and
    // only the largest one given; freed with the thread.
    static void recycle(EpochList&& list);
    // The epochs recycle() kept on this thread (empty when none), taken.
    static Vector takeRecycled();

    // Both lists read the same buffer (tests, diagnostics).
    bool sharesWith(const EpochList& other) const { return m_block.sameBlock(other.m_block); }

private:
    struct Block;
    difference_type indexOf(const_iterator pos) const { return pos - items().begin(); }

    SharedBlock<Block> m_block;
};

} // namespace ckpt
