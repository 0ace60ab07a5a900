#include "keras/KerasTemplate.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdlib>
#include <initializer_list>
#include <map>

namespace ckpt {

namespace {

bool endsWith(std::string_view s, std::string_view suffix)
{
    if (s.size() < suffix.size())
        return false;
    for (std::size_t i = 0; i < suffix.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(s[s.size() - suffix.size() + i])) != suffix[i])
            return false;
    return true;
}

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

bool isSeparator(char c)
{
    return c == '-' || c == '_' || c == '=' || c == '.' || c == ':' || c == ' ';
}

// A stem cut into literal text and numbers: literals.size() == numbers.size() + 1.
// Views into the names recover() was given, which outlive every Shape.
struct Shape
{
    std::vector<std::string_view> literals;
    std::vector<std::string_view> numbers;
};

// The length of the number starting at `i`, 0 when none does. A '-' belongs to
// the number only after a separator ("01--0.12", "loss=-0.5"), not in "model-05".
// Python writes non-finite metrics as nan / inf.
std::size_t numberAt(std::string_view s, std::size_t i)
{
    std::size_t j = i;
    const bool atBoundary = i == 0 || isSeparator(s[i - 1]);
    if (s[j] == '-' && atBoundary && j + 1 < s.size())
        ++j;
    for (std::string_view word : {"nan", "inf"}) {
        if (atBoundary && s.substr(j, 3) == word && (j + 3 == s.size() || isSeparator(s[j + 3])))
            return j + 3 - i;
    }
    if (j >= s.size() || !isDigit(s[j]))
        return 0;
    while (j < s.size() && isDigit(s[j]))
        ++j;
    if (j + 1 < s.size() && s[j] == '.' && isDigit(s[j + 1])) {
        ++j;
        while (j < s.size() && isDigit(s[j]))
            ++j;
    }
    if (j + 1 < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        std::size_t k = j + 1;
        if (k < s.size() && (s[k] == '-' || s[k] == '+'))
            ++k;
        if (k < s.size() && isDigit(s[k])) {
            while (k < s.size() && isDigit(s[k]))
                ++k;
            j = k;
        }
    }
    return j - i;
}

Shape shapeOf(std::string_view stem)
{
    Shape shape;
    // Room for the common names ("weights.12-0.34", "model_epoch_12_batch_300")
    // at once: a folder of 10,000 checkpoints is read twice (found, then loaded).
    shape.literals.reserve(4);
    shape.numbers.reserve(3);
    std::size_t literal = 0;
    for (std::size_t i = 0; i < stem.size();) {
        const std::size_t n = numberAt(stem, i);
        if (n == 0) {
            ++i;
            continue;
        }
        shape.literals.push_back(stem.substr(literal, i - literal));
        shape.numbers.push_back(stem.substr(i, n));
        i += n;
        literal = i;
    }
    shape.literals.push_back(stem.substr(literal));
    return shape;
}

// A slot's number as atoi / strtod read it (isIntegral: at most 9 digits).
int integerOf(std::string_view number)
{
    int value = 0;
    std::from_chars(number.data(), number.data() + number.size(), value);
    return value;
}

double numberOf(std::string_view number)
{
    double value = 0.0;
    std::from_chars(number.data(), number.data() + number.size(), value);
    return value;
}

bool isIntegral(std::string_view number)
{
    const std::size_t start = !number.empty() && number[0] == '-' ? 1 : 0;
    return number.size() > start && number.size() - start <= 9 &&
           std::all_of(number.begin() + std::ptrdiff_t(start), number.end(), isDigit);
}

// The identifier a literal ends with ("val_loss=" -> "val_loss", "model_epoch_" ->
// "model_epoch"), and whether it was written as `name=value`.
std::pair<std::string, bool> trailingName(std::string_view literal)
{
    bool named = false;
    if (!literal.empty() && (literal.back() == '=' || literal.back() == ':')) {
        named = true;
        literal.remove_suffix(1);
    } else if (!literal.empty() && (literal.back() == '_' || literal.back() == '-')) {
        literal.remove_suffix(1);
    }
    std::size_t start = literal.size();
    while (start > 0 && (std::isalnum(static_cast<unsigned char>(literal[start - 1])) ||
                         literal[start - 1] == '_'))
        --start;
    return {std::string(literal.substr(start)), named};
}

bool mentions(std::string_view name, std::string_view word)
{
    return name.size() >= word.size() && name.substr(name.size() - word.size()) == word;
}

bool containsWord(std::string_view text, std::initializer_list<std::string_view> words)
{
    std::string lower(text);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return std::any_of(words.begin(), words.end(),
                       [&](std::string_view w) { return lower.find(w) != std::string::npos; });
}

// save_best_only with a path without {epoch}: the one file it keeps overwriting.
bool looksBestOnly(std::string_view stem)
{
    return containsWord(stem, {"best", "checkpoint", "ckpt"});
}

bool looksLikeCheckpoint(std::string_view literal)
{
    return containsWord(literal, {"best", "checkpoint", "ckpt", "epoch", "program", "model"});
}

struct Group
{
    std::string extension;
    std::vector<std::string_view> names; // into recover()'s names
    std::vector<Shape> shapes;
};

std::optional<KerasTemplate> templateOf(const Group& g, KerasFlavor flavor)
{
    const std::size_t slots = g.shapes.front().numbers.size();
    if (slots == 0 || g.names.size() < 2)
        return std::nullopt;
    const Shape& first = g.shapes.front();
    std::vector<bool> integral(slots, true), varies(slots, false);
    for (const Shape& s : g.shapes) {
        for (std::size_t k = 0; k < slots; ++k) {
            integral[k] = integral[k] && isIntegral(s.numbers[k]);
            varies[k] = varies[k] || s.numbers[k] != first.numbers[k];
        }
    }
    std::optional<std::size_t> epochSlot, batchSlot;
    for (std::size_t k = 0; k < slots; ++k) {
        const auto [name, named] = trailingName(first.literals[k]);
        if (!integral[k])
            continue;
        if (!epochSlot && mentions(name, "epoch"))
            epochSlot = k;
        else if (!batchSlot && (mentions(name, "batch") || mentions(name, "step")))
            batchSlot = k;
    }
    for (std::size_t k = 0; k < slots && !epochSlot; ++k)
        if (integral[k] && varies[k] && k != batchSlot)
            epochSlot = k;
    if (!epochSlot)
        return std::nullopt;
    for (std::size_t k = *epochSlot + 1; k < slots && !batchSlot; ++k) {
        const auto [name, named] = trailingName(first.literals[k]);
        if (integral[k] && varies[k] && !named)
            batchSlot = k;
    }
    if (!varies[*epochSlot] && !(batchSlot && varies[*batchSlot]))
        return std::nullopt;

    // The other slots: metrics when they vary or are named, literal text otherwise
    // ("resnet50" in "resnet50-{epoch}" is not a number of the template).
    // A single unnamed number is the monitored metric (the documented
    // `weights.{epoch:02d}-{val_loss:.2f}.hdf5`); several cannot be told apart.
    std::vector<std::string> metricNames(slots);
    std::vector<std::size_t> unnamed;
    for (std::size_t k = 0; k < slots; ++k) {
        if (k == *epochSlot || k == batchSlot)
            continue;
        const auto [name, named] = trailingName(first.literals[k]);
        if (named && !name.empty())
            metricNames[k] = name;
        else if (varies[k]) // a constant ("resnet50", "lr0.001") is text of the name
            unnamed.push_back(k);
    }
    for (std::size_t i = 0; i < unnamed.size(); ++i)
        metricNames[unnamed[i]] = unnamed.size() == 1
                                      ? std::string(KerasTemplates::defaultMonitor(flavor))
                                      : "metric" + std::to_string(i + 1);

    // Any folder of data may hold config_1.json, config_2.json: a bare .json is
    // a Synalinks program only when the name says checkpoint or carries a metric.
    if (g.extension == ".json") {
        const bool metric = std::any_of(metricNames.begin(), metricNames.end(),
                                        [](const std::string& m) { return !m.empty(); });
        std::string literal;
        for (const auto& l : first.literals)
            literal += l;
        if (!metric && !looksLikeCheckpoint(literal))
            return std::nullopt;
    }

    KerasTemplate t;
    t.extension = g.extension;
    t.hasBatch = batchSlot.has_value();
    for (std::size_t k = 0; k <= slots; ++k) {
        t.text += first.literals[k];
        if (k == slots)
            break;
        // A finite sample shows the format (nan does not).
        std::string_view sample = first.numbers[k];
        for (const Shape& s : g.shapes)
            if (s.numbers[k].find_first_of("0123456789") != std::string::npos) {
                sample = s.numbers[k];
                break;
            }
        if (k == *epochSlot || k == batchSlot) {
            const bool padded = std::any_of(g.shapes.begin(), g.shapes.end(), [&](const Shape& s) {
                return s.numbers[k].size() > 1 && s.numbers[k][0] == '0';
            });
            t.text += std::string(k == *epochSlot ? "{epoch" : "{batch") +
                      (padded ? ":0" + std::to_string(sample.size()) + "d}" : "}");
        } else if (metricNames[k].empty()) {
            t.text += sample;
        } else {
            const std::size_t dot = sample.find('.');
            t.text += "{" + metricNames[k] +
                      (dot == std::string::npos || sample.find_first_of("eE") != std::string::npos
                           ? "}"
                           : ":." + std::to_string(sample.size() - dot - 1) + "f}");
        }
    }
    t.text += g.extension;
    for (std::size_t i = 0; i < g.names.size(); ++i) {
        const Shape& s = g.shapes[i];
        KerasName n;
        n.name = std::string(g.names[i]);
        n.epoch = integerOf(s.numbers[*epochSlot]);
        if (batchSlot)
            n.batch = integerOf(s.numbers[*batchSlot]);
        for (std::size_t k = 0; k < slots; ++k)
            if (!metricNames[k].empty())
                n.metrics.emplace_back(metricNames[k], numberOf(s.numbers[k]));
        t.files.push_back(std::move(n));
    }
    std::sort(t.files.begin(), t.files.end(), [](const KerasName& a, const KerasName& b) {
        if (a.epoch != b.epoch)
            return a.epoch < b.epoch;
        if (a.batch != b.batch)
            return a.batch < b.batch;
        return a.name < b.name;
    });
    return t;
}

} // namespace

std::string_view KerasTemplates::defaultMonitor(KerasFlavor flavor)
{
    return flavor == KerasFlavor::Keras ? "val_loss" : "val_reward";
}

std::string_view KerasTemplates::extensionOf(std::string_view name, KerasFlavor flavor)
{
    if (name.empty() || name.front() == '.')
        return {};
    // Longest first: "x.weights.h5" is a weights file, not an ".h5" named "x.weights".
    static constexpr std::string_view keras[] = {".weights.h5", ".keras", ".hdf5", ".h5"};
    static constexpr std::string_view synalinks[] = {".variables.json", ".json"};
    if (flavor == KerasFlavor::Keras) {
        for (std::string_view e : keras)
            if (endsWith(name, e) && name.size() > e.size())
                return e;
    } else {
        for (std::string_view e : synalinks)
            if (endsWith(name, e) && name.size() > e.size())
                return e;
    }
    return {};
}

std::vector<KerasTemplate> KerasTemplates::recover(const std::vector<std::string>& names,
                                                   KerasFlavor flavor)
{
    std::map<std::string, Group> groups;
    std::string key; // kept from name to name: no allocation each
    for (const std::string& name : names) {
        const std::string_view ext = extensionOf(name, flavor);
        if (ext.empty())
            continue;
        const std::string_view stem = std::string_view(name).substr(0, name.size() - ext.size());
        Shape shape = shapeOf(stem);
        // Each literal with its length: a separator byte could also be in a name
        // and put shapes with different slot counts in one group (a heap
        // overflow in templateOf, found by fuzz_keras_template).
        key.assign(ext);
        for (const auto& l : shape.literals) {
            char size[24];
            key += '/';
            key.append(size, std::to_chars(size, size + sizeof size, l.size()).ptr);
            key += ':';
            key += l;
        }
        Group& g = groups[key];
        if (g.names.empty())
            g.extension = std::string(ext);
        g.names.push_back(name);
        g.shapes.push_back(std::move(shape));
    }
    std::vector<KerasTemplate> out;
    std::vector<std::string> singles;
    for (const auto& [groupKey, g] : groups) {
        if (auto t = templateOf(g, flavor))
            out.push_back(std::move(*t));
        else if (g.names.size() == 1)
            singles.emplace_back(g.names.front());
    }
    // A lone file says save_best_only only when nothing in the folder has a template
    // and the file is the only checkpoint-like one there.
    if (out.empty() && singles.size() == 1 && groups.size() == 1) {
        const std::string& name = singles.front();
        const std::string_view ext = extensionOf(name, flavor);
        const std::string_view stem = std::string_view(name).substr(0, name.size() - ext.size());
        // Only under a checkpoint-like name; a bare .json must also say it is a
        // program ("checkpoint.program.json"): CANDLE's ckpt-info.json is not one.
        if (looksBestOnly(stem) && (ext != ".json" || containsWord(stem, {"program"}))) {
            KerasTemplate t;
            t.text = name;
            t.extension = std::string(ext);
            t.bestOnly = true;
            KerasName n;
            n.name = name;
            n.epoch = 1;
            t.files.push_back(std::move(n));
            out.push_back(std::move(t));
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const KerasTemplate& a, const KerasTemplate& b) {
        return a.files.size() != b.files.size() ? a.files.size() > b.files.size() : a.text < b.text;
    });
    return out;
}

} // namespace ckpt
