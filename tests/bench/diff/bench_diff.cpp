// bench_diff make <dir> <big_tensors> <big_elements> <small_tensors> <small_elements>
// bench_diff ours <a.h5> <b.h5> <reps>     median seconds of TensorDiff::diff
// bench_diff bare <a.h5> <b.h5> <reps>     median seconds of H5Dread of every dataset
// bench_diff list <a.h5> <b.h5> <reps>     median seconds of listing both files (diagnosis)
// Prints one line "<median seconds> <bytes>" for the timing modes.
#include "hdf5/H5File.h"
#include "hdf5/H5Lock.h"
#include "hdf5/TensorDiff.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <hdf5.h>
#include <memory>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

void writeFile(const std::string& path, int tensors, hsize_t elements, bool perturb, bool small)
{
    ckpt::H5Lock lock;
    const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    std::vector<float> data(elements);
    for (int t = 0; t < tensors; ++t) {
        std::uint32_t x = 12345u + static_cast<std::uint32_t>(t) * 7919u;
        for (hsize_t i = 0; i < elements; ++i) {
            x = x * 1664525u + 1013904223u;
            data[i] = static_cast<float>(x >> 8) / 16777216.0f - 0.5f;
        }
        // B differs from A in every other tensor: half "changed", half "same".
        if (perturb && t % 2 == 0) {
            for (hsize_t i = 0; i < elements; i += 5)
                data[i] += 1e-3f;
        }
        const std::string name = small ? "/model_weights/layer_" + std::to_string(t) + "/layer_" +
                                             std::to_string(t) + "/kernel:0"
                                       : "/model_weights/big_" + std::to_string(t) + "/big_" +
                                             std::to_string(t) + "/kernel:0";
        const hid_t lcpl = H5Pcreate(H5P_LINK_CREATE);
        H5Pset_create_intermediate_group(lcpl, 1);
        const hid_t space = H5Screate_simple(1, &elements, nullptr);
        const hid_t ds =
            H5Dcreate2(file, name.c_str(), H5T_IEEE_F32LE, space, lcpl, H5P_DEFAULT, H5P_DEFAULT);
        H5Dwrite(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data());
        H5Dclose(ds);
        H5Sclose(space);
        H5Pclose(lcpl);
    }
    H5Fclose(file);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

struct Listing
{
    std::vector<std::string> names;
};

herr_t collect(hid_t, const char* name, const H5O_info_t* info, void* data)
{
    if (info->type == H5O_TYPE_DATASET)
        static_cast<Listing*>(data)->names.emplace_back(name);
    return 0;
}

// The floor: open each file, list its datasets and read every one whole into a
// reused buffer. No math at all.
std::uint64_t bareRead(const std::string& path)
{
    ckpt::H5Lock lock;
    const hid_t file = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    Listing list;
    H5Ovisit2(file, H5_INDEX_NAME, H5_ITER_INC, collect, &list, H5O_INFO_BASIC);
    static std::vector<float> buffer;
    std::uint64_t bytes = 0;
    for (const std::string& name : list.names) {
        const hid_t ds = H5Dopen2(file, name.c_str(), H5P_DEFAULT);
        const hid_t space = H5Dget_space(ds);
        const auto n = static_cast<std::size_t>(H5Sget_simple_extent_npoints(space));
        if (buffer.size() < n)
            buffer.resize(n);
        H5Dread(ds, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, buffer.data());
        bytes += n * sizeof(float);
        H5Sclose(space);
        H5Dclose(ds);
    }
    H5Fclose(file);
    return bytes;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc < 3) {
        std::fprintf(stderr, "usage: see the header of bench_diff.cpp\n");
        return 2;
    }
    const std::string mode = argv[1];
    if (mode == "make" && argc == 7) {
        const std::string dir = argv[2];
        const int big = std::atoi(argv[3]);
        const auto bigN = static_cast<hsize_t>(std::atoll(argv[4]));
        const int small = std::atoi(argv[5]);
        const auto smallN = static_cast<hsize_t>(std::atoll(argv[6]));
        writeFile(dir + "/big_a.h5", big, bigN, false, false);
        writeFile(dir + "/big_b.h5", big, bigN, true, false);
        writeFile(dir + "/small_a.h5", small, smallN, false, true);
        writeFile(dir + "/small_b.h5", small, smallN, true, true);
        return 0;
    }
    if ((mode == "ours" || mode == "bare" || mode == "list") && argc == 5) {
        const std::string a = argv[2];
        const std::string b = argv[3];
        const int reps = std::max(1, std::atoi(argv[4]));
        std::vector<double> times;
        std::uint64_t bytes = 0;
        for (int r = 0; r < reps; ++r) {
            const auto t0 = Clock::now();
            if (mode == "list") {
                auto fa = ckpt::H5File::open(a);
                auto fb = ckpt::H5File::open(b);
                bytes = fa->datasets(true)->size() + fb->datasets(true)->size();
            } else if (mode == "ours") {
                const auto d = ckpt::TensorDiff::diff(a, b);
                if (!d) {
                    std::fprintf(stderr, "%s\n", d.error().message.c_str());
                    return 1;
                }
                bytes = d->bytesRead;
                // Keep the optimiser honest: use the result.
                if (d->tensors.empty() || std::isnan(d->tensors.front().l2Diff))
                    std::fprintf(stderr, "unexpected result\n");
            } else {
                bytes = bareRead(a) + bareRead(b);
            }
            times.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
        }
        std::printf("%.6f %llu\n", median(times), static_cast<unsigned long long>(bytes));
        return 0;
    }
    std::fprintf(stderr, "bad arguments\n");
    return 2;
}
