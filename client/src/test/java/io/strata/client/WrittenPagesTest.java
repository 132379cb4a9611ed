package io.strata.client;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class WrittenPagesTest {
    static final int PAGE = 100;
    final AtomicLong budget = new AtomicLong();
    final WrittenPages pages = new WrittenPages(PAGE, budget, 3 * PAGE);

    static ByteBuffer bytes(int from, int length) {
        ByteBuffer b = ByteBuffer.allocate(length);
        for (int i = 0; i < length; i++) {
            b.put((byte) (from + i));
        }
        return b.flip();
    }

    static void assertPage(WrittenPages.Page page, long index, int length) {
        assertThat(page.index()).isEqualTo(index);
        assertThat(page.data().remaining()).isEqualTo(length);
        for (int i = 0; i < length; i++) {
            assertThat(page.data().get(page.data().position() + i)).isEqualTo((byte) (index * PAGE + i));
        }
    }

    @Test
    void sequentialWritesMakeWholePagesAndTheTailCountsAtTheEndOfFile() {
        for (int off = 0; off < 250; off += 30) {
            ByteBuffer src = bytes(off, Math.min(30, 250 - off));
            pages.written(src, off);
            assertThat(src.position()).isZero();
        }
        List<WrittenPages.Page> whole = pages.drain(250);
        assertThat(whole).hasSize(3);
        assertPage(whole.get(0), 0, PAGE);
        assertPage(whole.get(1), 1, PAGE);
        assertPage(whole.get(2), 2, 50);
        assertThat(budget.get()).isZero();
    }

    @Test
    void aPageNotWrittenFromItsStartOrWithAGapIsNotKept() {
        pages.written(bytes(10, 90), 10);   // page 0 from its middle
        pages.written(bytes(100, 20), 100); // page 1 starts
        pages.written(bytes(150, 50), 150); // a gap in page 1
        assertThat(pages.drain(200)).isEmpty();
    }

    @Test
    void rewritingStagedBytesKeepsTheLatest() {
        pages.written(bytes(0, 100), 0);
        pages.written(ByteBuffer.wrap(new byte[] {9, 9}), 10);
        WrittenPages.Page page = pages.drain(100).get(0);
        assertThat(page.data().get(10)).isEqualTo((byte) 9);
        assertThat(page.data().get(12)).isEqualTo((byte) 12);
    }

    @Test
    void aTruncateDropsEverythingAndTheBudgetBoundsWhatIsStaged() {
        pages.written(bytes(0, 500), 0);
        assertThat(budget.get()).isEqualTo(3 * PAGE);
        pages.truncated();
        assertThat(budget.get()).isZero();
        assertThat(pages.drain(500)).isEmpty();
    }

    @Test
    void aShortPageTakesOnlyTheBytesWrittenFromTheBudget() {
        pages.written(bytes(0, 30), 0);
        assertThat(budget.get()).isEqualTo(30);
        pages.written(bytes(30, 30), 30);
        assertThat(budget.get()).isEqualTo(60);
        pages.written(bytes(60, 30), 60);
        assertThat(budget.get()).isEqualTo(PAGE); // grown by doubling, never past the page
        assertPage(pages.drain(90).get(0), 0, 90);
        assertThat(budget.get()).isZero();
    }

    @Test
    void aPageThatCannotGrowWithinTheBudgetIsDroppedNotCutShort() {
        pages.written(bytes(0, 250), 0);  // pages 0 and 1 whole, page 2 staged with 50 bytes
        assertThat(budget.get()).isEqualTo(250);
        WrittenPages other = new WrittenPages(PAGE, budget, 3 * PAGE);
        other.written(bytes(0, 40), 0);   // takes 40 of the 50 left
        pages.written(bytes(250, 50), 250); // page 2 would need 50 more: it is dropped
        assertThat(budget.get()).isEqualTo(240);
        List<WrittenPages.Page> whole = pages.drain(300);
        assertThat(whole).extracting(WrittenPages.Page::index).containsExactly(0L, 1L);
    }
}
