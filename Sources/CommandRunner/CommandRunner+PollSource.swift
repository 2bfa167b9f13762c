import PollLoop
import TouchGestures

// The runner waits on its children's pidfds and stderr pipes and on its timeouts, all of
// it inside the daemon's one poll loop.
extension CommandRunner: PollSource {}
