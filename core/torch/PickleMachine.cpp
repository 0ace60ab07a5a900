#include "torch/PickleMachine.h"

#include <bit>
#include <cstring>

namespace ckpt::pickle {

namespace {

std::optional<std::int64_t> asInt(const Ref& r)
{
    if (auto* i = std::get_if<std::int64_t>(&r->v))
        return *i;
    return std::nullopt;
}

std::optional<std::vector<std::int64_t>> asInts(const Ref& r)
{
    auto* t = std::get_if<Tuple>(&r->v);
    if (!t || t->items.size() > kMaxDims)
        return std::nullopt;
    std::vector<std::int64_t> out;
    for (const Ref& item : t->items) {
        auto i = asInt(item);
        if (!i)
            return std::nullopt;
        out.push_back(*i);
    }
    return out;
}

std::string describeStride(const std::vector<std::int64_t>& s)
{
    std::string out = "(";
    for (std::size_t i = 0; i < s.size(); ++i)
        out += (i ? ", " : "") + std::to_string(s[i]);
    return out + ")";
}

Result<Ref> rebuildTensor(const std::vector<Ref>& a, const std::string& where)
{
    if (a.size() < 4)
        return Error{where + ": _rebuild_tensor_v2 called with " + std::to_string(a.size()) +
                         " arguments, expected at least 4",
                     {}};
    auto* storage = std::get_if<Storage>(&a[0]->v);
    auto offset = asInt(a[1]);
    auto size = asInts(a[2]);
    auto stride = asInts(a[3]);
    if (!storage || !offset || *offset < 0 || !size || !stride || size->size() != stride->size())
        return Error{where + ": _rebuild_tensor_v2 arguments are not (storage, offset, size, "
                             "stride)",
                     {}};
    TorchTensorRef t;
    t.storageType = storage->type;
    t.dtype = TorchPickle::dtypeOfStorage(storage->type);
    t.storageKey = storage->key;
    t.storageNumel = storage->numel;
    t.storageOffset = static_cast<std::uint64_t>(*offset);
    t.stride = *stride;
    std::uint64_t elements = 1;
    bool overflow = false;
    for (std::int64_t d : *size) {
        if (d < 0 || (d > 0 && elements > (std::uint64_t(1) << 62) / std::uint64_t(d)))
            overflow = true;
        else
            elements *= static_cast<std::uint64_t>(d);
        t.shape.push_back(static_cast<std::uint64_t>(std::max<std::int64_t>(d, 0)));
    }
    t.elements = overflow ? 0 : elements;
    // C order: the last dimension moves fastest; dimensions of size 1 may carry any stride.
    std::int64_t expect = 1;
    bool negative = false;
    std::uint64_t span = elements > 0 ? 1 : 0;
    for (std::size_t i = size->size(); i-- > 0;) {
        if ((*size)[i] != 1 && (*stride)[i] != expect)
            t.contiguous = false;
        expect *= std::max<std::int64_t>((*size)[i], 1);
        if ((*stride)[i] < 0 || (*stride)[i] > (std::int64_t(1) << 40))
            negative = true;
        else if (elements > 0)
            span += std::uint64_t((*size)[i] - 1) * std::uint64_t((*stride)[i]);
    }
    t.span = span;
    if (overflow)
        t.note = "shape is negative or too large: not read";
    else if (negative)
        t.note = "strides " + describeStride(*stride) + " are negative or too large: not read";
    else if (t.dtype.kind == DTypeKind::Other)
        t.note = "storage type " + storage->type + " is not read";
    else if (span > 0 &&
             (t.storageOffset > storage->numel || span > storage->numel - t.storageOffset))
        t.note = "needs elements up to " + std::to_string(t.storageOffset + span) +
                 " of a storage of " + std::to_string(storage->numel) + ": not read";
    return make(std::move(t));
}

} // namespace

Result<Ref> Machine::call(const Ref& callable, const Ref& args)
{
    auto* g = std::get_if<Global>(&callable->v);
    auto* tuple = std::get_if<Tuple>(&args->v);
    if (g && tuple) {
        if (g->module == "torch._utils" && g->name == "_rebuild_tensor_v2")
            return rebuildTensor(tuple->items, m_where);
        if (g->module == "torch._utils" && g->name == "_rebuild_parameter" &&
            !tuple->items.empty() && std::holds_alternative<TorchTensorRef>(tuple->items[0]->v))
            return tuple->items[0];
        if (g->module == "collections" && g->name == "OrderedDict" && tuple->items.empty())
            return make(Dict{});
    }
    Opaque o;
    o.what = g ? g->module + "." + g->name : "a non-global callable";
    if (tuple) {
        for (const Ref& item : tuple->items)
            o.holdsStorage =
                o.holdsStorage || std::holds_alternative<Storage>(item->v) ||
                (std::holds_alternative<Opaque>(item->v) && std::get<Opaque>(item->v).holdsStorage);
    }
    return make(std::move(o));
}

Result<Ref> Machine::persistent(const Ref& pid)
{
    auto* t = std::get_if<Tuple>(&pid->v);
    if (!t || t->items.size() < 5)
        return fail("persistent id is not a ('storage', type, key, location, numel) tuple");
    auto* tag = std::get_if<std::string>(&t->items[0]->v);
    auto* type = std::get_if<Global>(&t->items[1]->v);
    auto* key = std::get_if<std::string>(&t->items[2]->v);
    auto numel = asInt(t->items[4]);
    if (!tag || *tag != "storage" || !type || !key || !numel || *numel < 0)
        return fail("persistent id is not a ('storage', type, key, location, numel) tuple");
    return make(Storage{type->name, *key, static_cast<std::uint64_t>(*numel)});
}

Status Machine::setItems(const Ref& target, const std::vector<Ref>& kv)
{
    if (kv.size() % 2)
        return fail("SETITEMS with an odd number of items");
    if (std::holds_alternative<Opaque>(target->v))
        return {}; // a dict subclass we do not model: its items are not read
    auto* d = std::get_if<Dict>(&target->v);
    if (!d)
        return fail("SETITEM on something that is not a dict");
    for (std::size_t i = 0; i < kv.size(); i += 2)
        d->emplace_back(kv[i], kv[i + 1]);
    m_filled.push_back(target);
    return {};
}

Status Machine::append(const Ref& target, const std::vector<Ref>& items)
{
    if (std::holds_alternative<Opaque>(target->v))
        return {};
    auto* l = std::get_if<List>(&target->v);
    if (!l)
        return fail("APPEND on something that is not a list");
    l->insert(l->end(), items.begin(), items.end());
    m_filled.push_back(target);
    return {};
}

Result<Ref> Machine::run()
{
    while (m_pos < m_data.size()) {
        m_opPos = m_pos;
        const auto op = static_cast<unsigned char>(m_data[m_pos++]);
        switch (op) {
        case 0x80: // PROTO
            if (!need(1))
                return fail("truncated PROTO");
            ++m_pos;
            break;
        case 0x95: // FRAME
            if (!need(8))
                return fail("truncated FRAME");
            m_pos += 8;
            break;
        case '}':
            m_stack.push_back(make(Dict{}));
            break;
        case ']':
            m_stack.push_back(make(List{}));
            break;
        case ')':
            m_stack.push_back(make(Tuple{}));
            break;
        case 'N':
            m_stack.push_back(make(std::monostate{}));
            break;
        case 0x88:
        case 0x89:
            m_stack.push_back(make(op == 0x88));
            break;
        case '(':
            m_stack.push_back(make(Mark{}));
            break;
        case 'X':   // BINUNICODE
        case 0x8c:  // SHORT_BINUNICODE
        case 'B':   // BINBYTES
        case 'C':   // SHORT_BINBYTES
        case 'T':   // BINSTRING
        case 'U': { // SHORT_BINSTRING
            const std::size_t lenBytes = (op == 0x8c || op == 'C' || op == 'U') ? 1 : 4;
            if (!need(lenBytes))
                return fail("truncated string length");
            const std::uint64_t len = le(lenBytes);
            if (!need(len))
                return fail("string of " + std::to_string(len) + " bytes runs past the end");
            m_stack.push_back(make(std::string(m_data.substr(m_pos, len))));
            m_pos += len;
            break;
        }
        case 'J':
        case 'K':
        case 'M': {
            const std::size_t n = op == 'J' ? 4 : op == 'K' ? 1 : 2;
            if (!need(n))
                return fail("truncated integer");
            std::uint64_t v = le(n);
            std::int64_t s =
                op == 'J' ? std::int64_t(std::int32_t(std::uint32_t(v))) : std::int64_t(v);
            m_stack.push_back(make(s));
            break;
        }
        case 0x8a: { // LONG1
            if (!need(1))
                return fail("truncated LONG1");
            const std::size_t n = le(1);
            if (!need(n))
                return fail("truncated LONG1");
            if (n > 8) {
                m_pos += n;
                m_stack.push_back(make(Opaque{"a long integer over 64 bits", false}));
                break;
            }
            std::uint64_t v = le(n);
            if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1)
                v |= ~std::uint64_t(0) << (8 * n); // sign-extend
            m_stack.push_back(make(static_cast<std::int64_t>(v)));
            break;
        }
        case 'G': { // BINFLOAT, big-endian
            if (!need(8))
                return fail("truncated BINFLOAT");
            std::uint64_t bits = 0;
            for (int i = 0; i < 8; ++i)
                bits = (bits << 8) | static_cast<unsigned char>(m_data[m_pos + i]);
            m_pos += 8;
            m_stack.push_back(make(std::bit_cast<double>(bits)));
            break;
        }
        case 'c': { // GLOBAL "module\nname\n"
            const auto nl1 = m_data.find('\n', m_pos);
            const auto nl2 = nl1 == m_data.npos ? m_data.npos : m_data.find('\n', nl1 + 1);
            if (nl2 == m_data.npos || nl2 - m_pos > 512)
                return fail("truncated GLOBAL");
            Global g{std::string(m_data.substr(m_pos, nl1 - m_pos)),
                     std::string(m_data.substr(nl1 + 1, nl2 - nl1 - 1))};
            m_pos = nl2 + 1;
            m_stack.push_back(make(std::move(g)));
            break;
        }
        case 0x93: { // STACK_GLOBAL
            auto name = pop();
            auto module = pop();
            auto* n = name ? std::get_if<std::string>(&(*name)->v) : nullptr;
            auto* m = module ? std::get_if<std::string>(&(*module)->v) : nullptr;
            if (!n || !m)
                return fail("STACK_GLOBAL without module and name");
            m_stack.push_back(make(Global{*m, *n}));
            break;
        }
        case 't': {
            auto items = popMark();
            if (!items)
                return fail("TUPLE without MARK");
            m_stack.push_back(make(Tuple{std::move(*items)}));
            break;
        }
        case 0x85:
        case 0x86:
        case 0x87: {
            const std::size_t n = op - 0x84;
            if (m_stack.size() < n)
                return fail("TUPLE" + std::to_string(n) + " on a short stack");
            Tuple t{
                std::vector<Ref>(m_stack.end() - static_cast<std::ptrdiff_t>(n), m_stack.end())};
            m_stack.resize(m_stack.size() - n);
            m_stack.push_back(make(std::move(t)));
            break;
        }
        case 'l':   // LIST
        case 'd': { // DICT
            auto items = popMark();
            if (!items)
                return fail("LIST/DICT without MARK");
            if (op == 'l') {
                m_stack.push_back(make(List(std::move(*items))));
            } else {
                Ref d = make(Dict{});
                if (auto s = setItems(d, *items); !s)
                    return s.error();
                m_stack.push_back(d);
            }
            break;
        }
        case 'Q': { // BINPERSID
            auto pid = pop();
            if (!pid)
                return fail("BINPERSID on an empty stack");
            auto storage = persistent(*pid);
            if (!storage)
                return storage.error();
            m_stack.push_back(*storage);
            break;
        }
        case 'R':    // REDUCE
        case 0x81: { // NEWOBJ
            auto args = pop();
            auto callable = pop();
            if (!args || !callable)
                return fail("REDUCE on a short stack");
            auto result = call(*callable, *args);
            if (!result)
                return result.error();
            m_stack.push_back(*result);
            break;
        }
        case 'b': { // BUILD: the state of an object we do not model
            if (!pop() || m_stack.empty())
                return fail("BUILD on a short stack");
            break;
        }
        case 's':
        case 'u': {
            std::vector<Ref> kv;
            if (op == 's') {
                if (m_stack.size() < 3)
                    return fail("SETITEM on a short stack");
                kv.assign(m_stack.end() - 2, m_stack.end());
                m_stack.resize(m_stack.size() - 2);
            } else {
                auto items = popMark();
                if (!items)
                    return fail("SETITEMS without MARK");
                kv = std::move(*items);
            }
            if (m_stack.empty())
                return fail("SETITEMS without a dict");
            if (auto s = setItems(m_stack.back(), kv); !s)
                return s.error();
            break;
        }
        case 'a':
        case 'e': {
            std::vector<Ref> items;
            if (op == 'a') {
                auto item = pop();
                if (!item)
                    return fail("APPEND on a short stack");
                items.push_back(*item);
            } else {
                auto popped = popMark();
                if (!popped)
                    return fail("APPENDS without MARK");
                items = std::move(*popped);
            }
            if (m_stack.empty())
                return fail("APPEND without a list");
            if (auto s = append(m_stack.back(), items); !s)
                return s.error();
            break;
        }
        case 'q':
        case 'r':
        case 0x94: { // BINPUT, LONG_BINPUT, MEMOIZE
            std::uint64_t idx = m_memo.size();
            if (op != 0x94) {
                const std::size_t n = op == 'q' ? 1 : 4;
                if (!need(n))
                    return fail("truncated PUT");
                idx = le(n);
            }
            if (m_stack.empty())
                return fail("PUT on an empty stack");
            m_memo[idx] = m_stack.back();
            break;
        }
        case 'h':
        case 'j': {
            const std::size_t n = op == 'h' ? 1 : 4;
            if (!need(n))
                return fail("truncated GET");
            const std::uint64_t idx = le(n);
            auto it = m_memo.find(idx);
            if (it == m_memo.end())
                return fail("GET of memo " + std::to_string(idx) + " that was never PUT");
            m_stack.push_back(it->second);
            break;
        }
        case '0':
            if (!pop())
                return fail("POP on an empty stack");
            break;
        case '1':
            if (!popMark())
                return fail("POP_MARK without MARK");
            break;
        case '2':
            if (m_stack.empty())
                return fail("DUP on an empty stack");
            m_stack.push_back(m_stack.back());
            break;
        case '.': {
            auto top = pop();
            if (!top)
                return fail("STOP on an empty stack");
            return *top;
        }
        default: {
            char hex[8];
            std::snprintf(hex, sizeof hex, "0x%02x", op);
            return fail(std::string("unknown pickle opcode ") + hex);
        }
        }
    }
    return fail("no STOP before the end of data.pkl");
}

} // namespace ckpt::pickle
