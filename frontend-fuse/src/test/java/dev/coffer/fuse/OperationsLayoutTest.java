package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import jnr.ffi.Struct;
import org.junit.jupiter.api.Test;

/** The operations table matches libfuse 2.9's struct fuse_operations, and the flags land in its bit-field byte. */
class OperationsLayoutTest {
    @Test
    void theFlagsByteFollowsTheThirtyEightCallbacksOfLibfuse29() {
        FuseAdapter adapter = new FuseAdapter(Path.of("/"), 0, 0);
        // 38 function pointers, one unsigned int of bit fields (padded to 8), 6 more function pointers
        assertThat(Struct.size(adapter.operations())).isEqualTo(38 * 8 + 8 + 6 * 8);
        assertThat(Struct.getMemory(adapter.operations()).getByte(FuseAdapter.FLAGS_OFFSET)).isEqualTo(FuseAdapter.FLAGS);
        assertThat(Struct.getMemory(adapter.operations()).getAddress(FuseAdapter.FLAGS_OFFSET + 8))
                .as("ioctl is not implemented").isZero();
        assertThat(Struct.getMemory(adapter.operations()).getAddress(FuseAdapter.FLAGS_OFFSET - 8))
                .as("bmap is not implemented").isZero();
        assertThat(Struct.getMemory(adapter.operations()).getAddress(FuseAdapter.FLAGS_OFFSET - 16))
                .as("utimens is").isNotZero();
    }

    @Test
    void theCallsOnAnOpenFileAreInstalledUndecoded() {
        FuseAdapter adapter = new FuseAdapter(Path.of("/"), 0, 0);
        var ops = adapter.operations();
        for (var slot : java.util.List.of(ops.read, ops.write, ops.flush, ops.release, ops.fsync, ops.ftruncate)) {
            assertThat(Struct.getMemory(ops).getAddress(slot.offset())).as("slot at %d", slot.offset()).isNotZero();
        }
        assertThat(Struct.getMemory(ops).getAddress(ops.flush.offset()))
                .as("flush and release have closures of their own")
                .isNotEqualTo(Struct.getMemory(ops).getAddress(ops.release.offset()));
    }
}
