/* Type promotion, checked against tables printed by torch 1.13 (torch.promote_types, torch.can_cast). */
#include "check.h"

/* expected[a-1][b-1] = torch.promote_types(a, b) as ct_dtype values (generated with torch 1.13). */
static const int expected_promote[12][12] = {
  {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
  {2, 2, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12},
  {3, 4, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12},
  {4, 4, 4, 4, 5, 6, 7, 8, 9, 10, 11, 12},
  {5, 5, 5, 5, 5, 6, 7, 8, 9, 10, 11, 12},
  {6, 6, 6, 6, 6, 6, 7, 8, 9, 10, 11, 12},
  {7, 7, 7, 7, 7, 7, 7, 9, 9, 10, 11, 12},
  {8, 8, 8, 8, 8, 8, 9, 8, 9, 10, 11, 12},
  {9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 11, 12},
  {10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 12, 12},
  {11, 11, 11, 11, 11, 11, 11, 11, 11, 12, 11, 12},
  {12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12, 12}
};
static const int expected_can_cast[12][12] = {
  {1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1},
  {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1}
};

static void test_tables(void) {
  for (int a = CT_BOOL; a <= CT_COMPLEX128; a++)
    for (int b = CT_BOOL; b <= CT_COMPLEX128; b++) {
      CHECK_EQ_INT(ct_promote_types((ct_dtype)a, (ct_dtype)b), expected_promote[a - 1][b - 1]);
      CHECK_EQ_INT(ct_can_cast((ct_dtype)a, (ct_dtype)b), expected_can_cast[a - 1][b - 1]);
    }
}

int main(void) {
  test_tables();
  return TEST_SUMMARY();
}
