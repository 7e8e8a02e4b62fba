package org.lmctfy.internal.codec;

import java.math.BigInteger;
import java.util.BitSet;
import java.util.List;

/**
 * The kernel's CPU and memory-node list format ({@code "0-3,6"}, as in {@code cpuset.cpus}) and
 * lmctfy's bitmask form of a CPU mask (repeated 64-bit words; bit j of word i is CPU 64*i+j).
 */
public final class CpuLists {
  /** Above any CPU or node number a kernel supports today; guards against absurd bit sets. */
  static final int MAX_ID = 1 << 20;

  private static final BigInteger TWO_TO_64 = BigInteger.ONE.shiftLeft(64);

  private CpuLists() {}

  /**
   * The canonical list form of {@code list} (sorted, ranges merged: {@code "3,0-2"} becomes {@code
   * "0-3"}); fails naming {@code field} when it is not a non-empty list of ids and ranges.
   */
  public static String normalize(String list, String field) {
    if (list == null) {
      return null;
    }
    if (list.isBlank()) {
      throw ParseErrors.invalid(field, list, "must list at least one id, as in \"0-3,6\"");
    }
    return format(parse(list, field));
  }

  /**
   * The ids of a list as the kernel prints it ({@code "0-3,6\n"}; an empty one is an empty cpuset);
   * fails naming {@code field} when it is not ids and ranges.
   */
  public static BitSet parse(String list, String field) {
    BitSet ids = new BitSet();
    String trimmed = list.strip();
    if (trimmed.isEmpty()) {
      return ids;
    }
    for (String part : trimmed.split(",", -1)) {
      int dash = part.indexOf('-');
      int lo = parseId(dash < 0 ? part : part.substring(0, dash), list, field);
      int hi = dash < 0 ? lo : parseId(part.substring(dash + 1), list, field);
      if (hi < lo) {
        throw ParseErrors.invalid(field, list, "range " + part.strip() + " runs backwards");
      }
      ids.set(lo, hi + 1);
    }
    return ids;
  }

  /** Whether every id of {@code list} is in {@code outer}, both lists as the kernel prints them. */
  public static boolean within(String list, String outer, String field) {
    BitSet extra = parse(list, field);
    extra.andNot(parse(outer, field));
    return extra.isEmpty();
  }

  /**
   * The list form of lmctfy's bitmask {@code words}; each word must be an unsigned 64-bit value and
   * at least one bit must be set. {@code field} names the words in failures.
   */
  public static String fromBitmask(List<BigInteger> words, String field) {
    BitSet ids = new BitSet();
    for (int i = 0; i < words.size(); i++) {
      BigInteger word = words.get(i);
      if (word.signum() < 0 || word.compareTo(TWO_TO_64) >= 0) {
        throw ParseErrors.invalid(field + "[" + i + "]", word, "must be an unsigned 64-bit word");
      }
      if ((long) (i + 1) * 64 > MAX_ID && word.signum() != 0) {
        throw ParseErrors.invalid(field + "[" + i + "]", word, "sets CPUs above " + MAX_ID);
      }
      for (int bit = 0; bit < 64; bit++) {
        if (word.testBit(bit)) {
          ids.set(i * 64 + bit);
        }
      }
    }
    if (ids.isEmpty()) {
      throw ParseErrors.invalid(field, words, "must set at least one CPU");
    }
    return format(ids);
  }

  private static int parseId(String text, String list, String field) {
    String s = text.strip();
    if (s.isEmpty() || s.length() > 7 || !s.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw ParseErrors.invalid(
          field, list, "must be ids and ranges separated by ',', as in \"0-3,6\"");
    }
    int id = Integer.parseInt(s);
    if (id >= MAX_ID) {
      throw ParseErrors.invalid(field, list, "ids must be below " + MAX_ID);
    }
    return id;
  }

  /**
   * The canonical list form of {@code ids}: sorted, ranges merged ({@code "0-3,6"}); "" for none.
   */
  public static String format(BitSet ids) {
    StringBuilder out = new StringBuilder();
    for (int lo = ids.nextSetBit(0); lo >= 0; lo = ids.nextSetBit(lo)) {
      int hi = ids.nextClearBit(lo) - 1;
      if (out.length() > 0) {
        out.append(',');
      }
      out.append(lo);
      if (hi > lo) {
        out.append('-').append(hi);
      }
      lo = hi + 1;
    }
    return out.toString();
  }
}
