#pragma once

// The pickle virtual machine behind TorchPickle (internal to core/torch): runs
// data.pkl's opcodes far enough to rebuild a torch.save state dict, with
// tensors as TorchTensorRef and anything else torch would build as Opaque.

#include "common/Result.h"
#include "torch/TorchPickle.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace ckpt::pickle {

struct Value;
using Ref = std::shared_ptr<Value>;

struct Global
{
    std::string module;
    std::string name;
};
struct Storage
{
    std::string type;
    std::string key;
    std::uint64_t numel = 0;
};
struct Opaque
{
    std::string what; // "module.name" of the callable that built it
    bool holdsStorage = false;
};
struct Mark
{};
using List = std::vector<Ref>;
using Dict = std::vector<std::pair<Ref, Ref>>;
struct Tuple
{
    std::vector<Ref> items;
};

// A pickled value. Lists and dicts are mutated in place after memoisation
// (SETITEMS on a memoised dict), hence shared_ptr.
struct Value
{
    std::variant<std::monostate, bool, std::int64_t, double, std::string, Tuple, List, Dict, Global,
                 Storage, TorchTensorRef, Opaque, Mark>
        v;
};

Ref make(auto&& x)
{
    auto r = std::make_shared<Value>();
    r->v = std::forward<decltype(x)>(x);
    return r;
}

constexpr std::size_t kMaxDepth = 64;
constexpr std::size_t kMaxDims = 32;
// Values visited when listing: memo GETs share values, so a small pickle can
// describe a tree of 2^64 paths ([x, x] nested 64 deep) or a cycle; real
// checkpoints stay far below this.
constexpr std::size_t kMaxVisits = std::size_t{1} << 18;

class Machine
{
public:
    Machine(std::string_view data, const std::string& where) : m_data(data), m_where(where) {}
    // APPEND and SETITEM can put a list or dict inside itself (found by
    // fuzz_torch_pickle): emptying every container that was added to breaks
    // each such shared_ptr cycle, since only those can close one.
    ~Machine()
    {
        for (const Ref& r : m_filled) {
            if (auto* l = std::get_if<List>(&r->v))
                l->clear();
            else if (auto* d = std::get_if<Dict>(&r->v))
                d->clear();
        }
    }
    Machine(const Machine&) = delete;
    Machine& operator=(const Machine&) = delete;

    Result<Ref> run();

private:
    Error fail(const std::string& what) const
    {
        return Error{m_where + ": " + what + " at offset " + std::to_string(m_opPos) +
                         " (not a torch.save pickle this version reads)",
                     {}};
    }
    bool need(std::size_t n) const { return m_data.size() - m_pos >= n; }
    std::uint64_t le(std::size_t n)
    {
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v |= std::uint64_t(static_cast<unsigned char>(m_data[m_pos + i])) << (8 * i);
        m_pos += n;
        return v;
    }
    std::optional<Ref> pop()
    {
        if (m_stack.empty())
            return std::nullopt;
        Ref r = m_stack.back();
        m_stack.pop_back();
        return r;
    }
    // Pops everything above the topmost mark, and the mark.
    std::optional<std::vector<Ref>> popMark()
    {
        for (std::size_t i = m_stack.size(); i-- > 0;) {
            if (std::holds_alternative<Mark>(m_stack[i]->v)) {
                std::vector<Ref> items(m_stack.begin() + static_cast<std::ptrdiff_t>(i) + 1,
                                       m_stack.end());
                m_stack.resize(i);
                return items;
            }
        }
        return std::nullopt;
    }
    Result<Ref> call(const Ref& callable, const Ref& args);
    Result<Ref> persistent(const Ref& pid);
    Status setItems(const Ref& target, const std::vector<Ref>& kv);
    Status append(const Ref& target, const std::vector<Ref>& items);

    std::string_view m_data;
    const std::string& m_where;
    std::size_t m_pos = 0;
    std::size_t m_opPos = 0;
    std::vector<Ref> m_stack;
    std::map<std::uint64_t, Ref> m_memo;
    std::vector<Ref> m_filled; // lists and dicts items were added to
};

} // namespace ckpt::pickle
