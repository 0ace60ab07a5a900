#include "ProtobufFixture.h"

#include "caffe2/caffe2_blob.pb.h"
#include "checksum/Crc32.h"
#include "mindspore/mindspore_checkpoint.pb.h"

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>

namespace ckpt::test {

namespace fs = std::filesystem;

std::string ProtobufFixture::floats(const std::vector<float>& v)
{
    std::string out(v.size() * sizeof(float), '\0');
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

std::string ProtobufFixture::halfs(const std::vector<std::uint16_t>& bits)
{
    std::string out(bits.size() * 2, '\0');
    std::memcpy(out.data(), bits.data(), out.size());
    return out;
}

std::string ProtobufFixture::int64s(const std::vector<std::int64_t>& v)
{
    std::string out(v.size() * 8, '\0');
    std::memcpy(out.data(), v.data(), out.size());
    return out;
}

std::string ProtobufFixture::mindspore(const std::vector<MsTensor>& tensors, bool crc)
{
    std::string out;
    for (const MsTensor& t : tensors) {
        const std::size_t parts = static_cast<std::size_t>(t.parts < 1 ? 1 : t.parts);
        const std::size_t chunk = (t.content.size() + parts - 1) / parts;
        for (std::size_t i = 0; i < parts; ++i) {
            ckpt::mindspore::Checkpoint one;
            auto* value = one.add_value();
            value->set_tag(t.tag);
            auto* tensor = value->mutable_tensor();
            for (auto d : t.dims)
                tensor->add_dims(d);
            tensor->set_tensor_type(t.type);
            const std::size_t from = std::min(i * chunk, t.content.size());
            tensor->set_tensor_content(t.content.substr(from, chunk));
            out += one.SerializeAsString();
        }
    }
    if (crc) {
        char digits[16];
        std::snprintf(digits, sizeof digits, "%010u", Crc32::update(0, out.data(), out.size()));
        out += "crc_num";
        out += digits;
    }
    return out;
}

std::vector<MsTensor> ProtobufFixture::network(int epoch, int step, float shift)
{
    std::vector<float> fc(12);
    for (std::size_t i = 0; i < fc.size(); ++i)
        fc[i] = 0.5f * static_cast<float>(i) - 1.0f;
    return {
        {"conv.weight", "Float32", {2, 3}, floats({1 + shift, 2, 3, 4, 5, 6 + shift}), 1},
        // 1.0, 2.0, -0.5, 0 as IEEE half bits.
        {"conv.bias", "Float16", {4}, halfs({0x3c00, 0x4000, 0xb800, 0x0000}), 1},
        {"fc.weight", "Float32", {3, 4}, floats(fc), 3},
        {"epoch_num", "Int64", {}, int64s({epoch}), 1},
        {"step_num", "Int64", {}, int64s({step}), 1},
    };
}

void ProtobufFixture::write(const fs::path& path, const std::string& bytes, bool readOnly)
{
    fs::create_directories(path.parent_path());
    {
        std::ofstream f(path, std::ios::binary | std::ios::trunc);
        f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    }
    if (readOnly)
        fs::permissions(path, fs::perms::owner_read);
}

std::string ProtobufFixture::minidb(const std::vector<C2Blob>& blobs)
{
    std::string out;
    std::map<std::string, int> chunks;
    for (const C2Blob& b : blobs) {
        ckpt::caffe2::BlobProto blob;
        blob.set_name(b.name);
        blob.set_type("Tensor");
        auto* t = blob.mutable_tensor();
        for (auto d : b.dims)
            t->add_dims(d);
        t->set_name(b.name);
        if (!b.bfloat16.empty()) {
            t->set_data_type(ckpt::caffe2::TensorProto::FLOAT);
            t->set_data_format(ckpt::caffe2::TensorProto::FMT_BFLOAT16);
            t->set_raw_data(std::string(reinterpret_cast<const char*>(b.bfloat16.data()),
                                        b.bfloat16.size() * 2));
        } else if (!b.byteData.empty()) {
            t->set_data_type(static_cast<ckpt::caffe2::TensorProto::DataType>(b.dataType));
            t->set_byte_data(b.byteData);
        } else if (!b.ints.empty()) {
            t->set_data_type(ckpt::caffe2::TensorProto::INT32);
            for (auto v : b.ints)
                t->add_int32_data(v);
        } else {
            t->set_data_type(ckpt::caffe2::TensorProto::FLOAT);
            for (auto v : b.floats)
                t->add_float_data(v);
        }
        if (b.segmentBegin >= 0) {
            t->mutable_segment()->set_begin(b.segmentBegin);
            t->mutable_segment()->set_end(b.segmentEnd);
        }
        const std::string value = blob.SerializeAsString();
        // TensorSerializer keys a chunk "<name>#%<chunk index>" (kChunkIdSeparator).
        const std::string key =
            b.segmentBegin >= 0 ? b.name + "#%" + std::to_string(chunks[b.name]++) : b.name;
        const std::int32_t kl = static_cast<std::int32_t>(key.size());
        const std::int32_t vl = static_cast<std::int32_t>(value.size());
        out.append(reinterpret_cast<const char*>(&kl), 4);
        out.append(reinterpret_cast<const char*>(&vl), 4);
        out += key;
        out += value;
    }
    return out;
}

} // namespace ckpt::test
