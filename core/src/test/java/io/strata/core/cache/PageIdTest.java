package io.strata.core.cache;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class PageIdTest {
    private final PageId page = new PageId("vol:42", "etag-1", 7, 1 << 20);

    @Test
    void idsOfTheSamePageAreEqualAndHashAlike() {
        PageId same = new PageId(new String("vol:42"), new String("etag-1"), 7, 1 << 20);

        assertThat(same).isEqualTo(page).hasSameHashCodeAs(page);
    }

    @Test
    void idsThatDifferInAnyPartAreDifferentPages() {
        assertThat(new PageId("vol:43", "etag-1", 7, 1 << 20)).isNotEqualTo(page);
        assertThat(new PageId("vol:42", "etag-2", 7, 1 << 20)).isNotEqualTo(page);
        assertThat(new PageId("vol:42", "etag-1", 8, 1 << 20)).isNotEqualTo(page);
        assertThat(new PageId("vol:42", "etag-1", 7, 1 << 21)).isNotEqualTo(page);
        assertThat(page).isNotEqualTo("vol:42");
    }

    @Test
    void aPageOfTheSameFileAtAnOffsetIsThePageHoldingThatByte() {
        assertThat(page.at(3L << 20)).isEqualTo(new PageId("vol:42", "etag-1", 3, 1 << 20));
        assertThat(page.at((8L << 20) - 1).offset()).isEqualTo(7L << 20);
    }
}
