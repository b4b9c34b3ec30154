// A course's assignments and the late policy through both Node builds of the grading module
// (courseAssignments, assignmentScores): the same numbers as core's doctest
// (tests/core/test_assignments.cpp) computed here by hand, core's sentences for bad input,
// and a course round-tripped through courseFromJson keeping its schedule.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';

import { BUILDS, loadPerflabGrade } from './perflab_module.mjs';

const modules = await Promise.all(BUILDS.map(loadPerflabGrade));
const COURSE = {
  id: 'perf-2026', title: 'ML Systems', salt: 'pepper', chapters: ['profiling'],
  assignments: [{ id: 'w1', name: 'Week 1', exercises: ['profiling.linear-params', 'profiling.ffn-param-memory'], weights: { 'profiling.linear-params': 3 }, points: 8, due: '2026-10-02T23:59:00-04:00' }],
  late_policy: { kind: 'per-day', penalty_per_day: 0.2, floor: 0.3 },
};

for (const [i, m] of modules.entries()) {
  describe(`assignments (${BUILDS[i]})`, () => {
    it('lists the assignments with their points and scores them with the late policy', () => {
      const course = m.courseFromJson(COURSE);
      assert.deepEqual(course.assignments, COURSE.assignments);
      assert.deepEqual(m.courseFromJson(course), course);
      const [w1] = m.courseAssignments(course);
      assert.deepEqual({ ...w1, exercises: w1.exercises.map((e) => [e.id, e.weight]) },
        { id: 'w1', name: 'Week 1', due: '2026-10-02T23:59:00-04:00', points_possible: 8, exercises: [['profiling.linear-params', 3], ['profiling.ffn-param-memory', 1]] });
      // Both 10-point exercises: 3 x 10 + 1 x 5 of 3 x 10 + 1 x 10 is 35/40 of 8 = 7; two
      // started days late keep 60%: 4.2.
      const scores = { 'profiling.linear-params': 10, 'profiling.ffn-param-memory': 5 };
      const [a] = m.assignmentScores(course, { scores, submitted_at: '2026-10-04T04:00:00Z' }).assignments;
      assert.equal(a.raw_score, 7);
      assert.equal(a.days_late, 2);
      assert.ok(Math.abs(a.score - 4.2) < 1e-12);
      // Five days: 1 - 5 x 0.2 = 0, floored at 30%.
      assert.ok(Math.abs(m.assignmentScores(course, { scores, submitted_at: '2026-10-08T00:00:00Z' }).assignments[0].score - 2.1) < 1e-12);
      assert.equal(m.assignmentScores(course, { scores, late: true }).assignments[0].days_late, 1);
      assert.equal(m.assignmentScores(course, { scores, submitted_at: null }).assignments[0].score, 7);
    });

    it("refuses bad input with core's sentences and stays usable", () => {
      const course = m.courseFromJson(COURSE);
      assert.throws(() => m.courseFromJson({ ...COURSE, late_policy: { kind: 'per-week' } }), { message: /"late_policy" "kind" must be "none", "per-day" or "cut-off"/ });
      assert.throws(() => m.assignmentScores(course, { scores: {}, submitted_at: '2026-10-04 04:00' }), { message: /"submitted_at" must be an ISO 8601 date and time with an offset/ });
      assert.throws(() => m.assignmentScores(course, { scores: { 'profiling.linear-params': 11 } }), { message: /must be points from 0 to 10/ });
      assert.throws(() => m.assignmentScores(course, 'late'), { message: /the student's scores must be an object/ });
      assert.throws(() => m.courseAssignments(42), { message: /course\.json must be an object/ });
      assert.equal(m.courseAssignments(course).length, 1);
    });
  });
}
