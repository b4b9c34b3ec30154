// Course identity and choice scoring through both Node builds: courseSeed gives the seed
// core's doctest computes by hand (tests/core/test_course.cpp), so a teacher's Node re-grade
// and a student's page draw the same variants; courseFromJson refuses bad files with core's
// sentences; a choice found on a later try earns less; the bank version is one string on
// both builds.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabGrade));
const COURSE = { id: 'perf-2026', title: 'ML Systems', salt: 'pepper' };

for (const [i, m] of modules.entries()) {
  describe(`course identity (${BUILDS[i]})`, () => {
    it('derives the doctest seed from course, salt and the normalized id', () => {
      // fmix64(FNV-1a 64 of "perf-2026\x1fpepper\x1fs123"), folded: computed once in Python, as
      // in the doctest; the point is that both builds give the native seed.
      assert.deepEqual(m.courseSeed(COURSE, '  S123 '), { seed: 298644646, student_id: 's123' });
      assert.notEqual(m.courseSeed({ ...COURSE, salt: 'salt' }, 's123').seed, 298644646);
    });

    it('reads course.json with chapters defaulting to every chapter', () => {
      assert.deepEqual(m.courseFromJson(COURSE).chapters, ['profiling', 'acceleration', 'benchmarking', 'optimization']);
      assert.throws(() => m.courseFromJson({ ...COURSE, chapters: ['roofline'] }),
        { message: 'course.json "chapters"[0] is "roofline"; the chapters are "profiling", "acceleration", "benchmarking", "optimization"' });
      assert.throws(() => m.courseSeed(COURSE, '   '),
        { message: 'the student id is empty; enter the id your course uses' });
      assert.throws(() => m.courseSeed(COURSE, 42), { message: /student_id must be a string/ });
      // The module stays usable after the errors.
      assert.equal(m.courseSeed(COURSE, 's123').seed, 298644646);
    });

    it('scores a choice found on the second try at half, against that try\'s variant, and says so', () => {
      const id = 'profiling.bound-classify';
      const rightOn = (t) => [0, 1, 2, 3].find((c) => m.gradeExercise(id, 5, { choice: c, attempt: t }).correct);
      assert.equal(m.gradeExercise(id, 5, { choice: rightOn(1), attempt: 1 }).score, 10);
      const second = m.gradeExercise(id, 5, { choice: rightOn(2), attempt: 2 });
      assert.equal(second.score, 5);
      assert.match(second.feedback, /Found on try 2, so it earns half the points\./);
      assert.notDeepEqual(m.choiceVariant(id, 5, 2).params, m.choiceVariant(id, 5, 1).params);
      const bank = m.exerciseBank();
      assert.ok(bank.every((e) => typeof e.scoring === 'string' && e.scoring.length > 0));
    });
  });
}

describe('bank version', () => {
  it('is the same content hash in both builds', () => {
    const versions = modules.map((m) => m.exerciseBankVersion());
    assert.match(versions[0], /^bank-[0-9a-f]{16}$/);
    assert.equal(versions[1], versions[0]);
  });
});
