#pragma once

class QAction;

namespace ckpt {

class ProgressStrip;
class Workspace;

// Shows a verification in the status bar's progress strip (epochs, bytes,
// the summary at the end) and keeps the cancel action and the strip's cancel
// button tied to it.
class VerifyProgress
{
public:
    static void follow(Workspace* workspace, ProgressStrip* strip, QAction* cancel);
};

} // namespace ckpt
