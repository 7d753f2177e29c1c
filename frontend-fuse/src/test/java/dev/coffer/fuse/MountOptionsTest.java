package dev.coffer.fuse;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The options a mount gets: no {@code default_permissions} for the mounting user alone (the store
 * checks that user's access; PermissionsAsUserIT in the app proves it), but the kernel checks
 * permissions as soon as other users are let in.
 */
class MountOptionsTest {
    private static String options(MountOptions o) {
        return String.join(" ", o.arguments("/mnt/x"));
    }

    @Test
    void aMountForItsUserAloneLeavesPermissionsToTheStore() {
        String args = options(MountOptions.defaults(false));
        assertThat(args).contains("big_writes", "atomic_o_trunc", "entry_timeout=10").doesNotContain("default_permissions");
        assertThat(options(MountOptions.defaults(true))).contains(",ro").doesNotContain("default_permissions");
        assertThat(options(MountOptions.defaults(false).withFuseOptions(List.of("attr_timeout=1", "noatime"))))
                .doesNotContain("default_permissions");
    }

    @Test
    void lettingOtherUsersInMakesTheKernelCheckPermissions() {
        for (List<String> shared : List.of(List.of("allow_other"), List.of("ro,allow_root"), List.of("noatime", " allow_other"))) {
            MountOptions o = MountOptions.defaults(false).withFuseOptions(shared);
            assertThat(o.sharedWithOthers()).as("%s", shared).isTrue();
            assertThat(options(o)).as("%s", shared).contains("default_permissions");
        }
        assertThat(MountOptions.defaults(false).withFuseOptions(List.of("allow_others_not")).sharedWithOthers()).isFalse();
    }

    @Test
    void readdirPlusIsLeftOutWithSpliceReadAndHeldEntriesWithTimeoutsOfTheCallers() {
        MountOptions plain = MountOptions.defaults(false);
        assertThat(plain.readdirPlusPossible()).isTrue();
        assertThat(plain.heldEntryNanos()).isEqualTo(5_000_000_000L); // half the built-in 10 s
        assertThat(plain.withFuseOptions(List.of("splice_read")).readdirPlusPossible()).isFalse();
        assertThat(plain.withFuseOptions(List.of("noatime,splice_read")).readdirPlusPossible()).isFalse();
        for (String o : List.of("entry_timeout=1", "attr_timeout=1", "negative_timeout=5", "noatime,attr_timeout=0")) {
            assertThat(plain.withFuseOptions(List.of(o)).heldEntryNanos()).as(o).isZero();
        }
    }

    @Test
    void theKernelsCacheTimeIsTheLongerOfTheCallersLastTimeoutsRoundedUpElseTheBuiltIn() {
        assertThat(MountOptions.defaults(false).kernelCacheSeconds()).isEqualTo(MountOptions.CACHE_SECONDS);
        assertThat(MountOptions.defaults(false).withFuseOptions(List.of("attr_timeout=60")).kernelCacheSeconds()).isEqualTo(60);
        assertThat(MountOptions.defaults(false).withFuseOptions(List.of("entry_timeout=1,attr_timeout=0.5", "ro")).kernelCacheSeconds())
                .isEqualTo(1);
        assertThat(MountOptions.defaults(false).withFuseOptions(List.of("attr_timeout=1")).kernelCacheSeconds())
                .as("the built-in entry timeout").isEqualTo(MountOptions.CACHE_SECONDS);
        assertThat(MountOptions.defaults(false).withFuseOptions(List.of("entry_timeout=30", "entry_timeout=0", "attr_timeout=0"))
                .kernelCacheSeconds()).isZero();
    }
}
