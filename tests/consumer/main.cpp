// Scans a folder and verifies every run it holds with ckpt::core, as the
// README's "Using the core from C++" shows. Exit status: 0 when runs were found
// and every checksum is clean, 1 otherwise.
#include "checksum/Verifier.h"
#include "scan/Scanner.h"

#include <iostream>

int main(int argc, char** argv)
{
    if (argc != 2) {
        std::cerr << "usage: ckpt-consumer DIR\n";
        return 2;
    }
    auto found = ckpt::Scanner::scan(argv[1]); // Result<Outcome>
    if (!found) {
        std::cerr << found.error().message << '\n'; // names file and problem
        return 1;
    }
    int epochs = 0;
    bool clean = !found->runs.empty();
    for (const ckpt::Run& run : found->runs) {
        auto report = ckpt::Verifier::verifyRun(run, {}); // all cores
        if (!report) {
            std::cerr << report.error().message << '\n';
            return 1;
        }
        epochs += report->totals.epochs();
        clean = clean && report->totals.clean();
        std::cout << run.root << ": " << run.epochs.size() << " epochs, "
                  << report->totals.count(ckpt::VerifyStatus::Ok) << " checksums ok\n";
    }
    std::cout << found->runs.size() << " runs, " << epochs << " epochs verified, "
              << (clean ? "clean" : "NOT clean") << '\n';
    return clean ? 0 : 1;
}
