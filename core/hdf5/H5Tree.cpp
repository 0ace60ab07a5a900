#include "hdf5/H5Tree.h"

namespace ckpt {

const H5Attribute* H5Node::attribute(const std::string& attrName) const
{
    for (const H5Attribute& a : attributes) {
        if (a.name == attrName)
            return &a;
    }
    return nullptr;
}

const H5Node* H5Node::child(const std::string& childName) const
{
    for (const H5Node& c : children) {
        if (c.name == childName)
            return &c;
    }
    return nullptr;
}

const H5Node* H5Node::find(const std::string& objectPath) const
{
    const H5Node* node = this;
    std::size_t pos = 0;
    while (node && pos < objectPath.size()) {
        const std::size_t slash = objectPath.find('/', pos);
        const std::size_t end = slash == std::string::npos ? objectPath.size() : slash;
        if (end > pos)
            node = node->child(objectPath.substr(pos, end - pos));
        pos = end + 1;
    }
    return node;
}

} // namespace ckpt
