package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;
import jnr.ffi.Struct;
import org.junit.jupiter.api.Test;
import ru.serce.jnrfuse.struct.FileStat;
import ru.serce.jnrfuse.struct.FuseFileInfo;

/** The reused views read and write exactly the memory of the callback they were last pointed at. */
class PerThreadStructsTest {
    private static final Runtime RUNTIME = Runtime.getSystemRuntime();

    @Test
    void aStatViewWritesIntoTheMemoryItWasLastPointedAt() {
        Pointer first = Memory.allocateDirect(RUNTIME, Struct.size(new FileStat(RUNTIME)));
        Pointer second = Memory.allocateDirect(RUNTIME, Struct.size(new FileStat(RUNTIME)));
        PerThreadStructs.stat(first).st_size.set(1234);
        FileStat view = PerThreadStructs.stat(second);
        view.st_size.set(5678);
        view.st_mode.set(FileStat.S_IFREG | 0644);
        assertThat(FileStat.of(first).st_size.longValue()).isEqualTo(1234);
        assertThat(FileStat.of(second).st_size.longValue()).isEqualTo(5678);
        assertThat(FileStat.of(second).st_mode.intValue()).isEqualTo(FileStat.S_IFREG | 0644);
        assertThat(PerThreadStructs.stat(first)).isSameAs(view);
    }

    @Test
    void aFileInfoViewReadsTheHandleOfItsMemoryAndEachThreadHasItsOwn() throws Exception {
        Pointer first = Memory.allocateDirect(RUNTIME, Struct.size(FuseFileInfo.of(null)));
        Pointer second = Memory.allocateDirect(RUNTIME, Struct.size(FuseFileInfo.of(null)));
        FuseFileInfo.of(first).fh.set(11);
        FuseFileInfo.of(second).fh.set(22);
        FuseFileInfo mine = PerThreadStructs.fileInfo(first);
        assertThat(mine.fh.longValue()).isEqualTo(11);
        AtomicReference<FuseFileInfo> other = new AtomicReference<>();
        Thread t = new Thread(() -> other.set(PerThreadStructs.fileInfo(second)));
        t.start();
        t.join();
        assertThat(other.get()).isNotSameAs(mine);
        assertThat(other.get().fh.longValue()).isEqualTo(22);
        assertThat(mine.fh.longValue()).as("another thread's callback does not move this thread's view").isEqualTo(11);
        assertThat(PerThreadStructs.fileInfo(second).fh.longValue()).isEqualTo(22);
    }
}
