// A class's assignment scores: core's courseAssignments (the gradebook's columns) and, for
// each student in the gradebook, core's assignmentScores over the re-graded exercise scores
// and the lateness the LMS recorded (roster.js's latenessOf). The rules (weights, points,
// the late policy) are core's; this only gathers their inputs. Runs in the page and in Node.
// Not for: writing the gradebook (outputs.js).

/**
 * The course assignments are read from: the course, or without one (files graded on their
 * own seeds) a stand-in naming only the graded chapters, so each chapter is one column as
 * before and no due date applies.
 */
export const assignmentCourse = (course, graded) => course ?? { id: 'no-course', title: 'no course.json', salt: 'none', chapters: graded.chapters };

/**
 * Adds graded.assignments ([{id, name, due, points_possible, exercises}]) and, to each
 * student in the gradebook, s.assignments ({assignments: [...], total}).
 * @param {object} graded gradeClass's result
 * @param {{lab: object, course?: object|null, lateness?: (entry) => object}} deps
 *        lateness(entry): {submitted_at, late?} for assignmentScores (default: none known)
 */
export async function scoreAssignments(graded, { lab, course = null, lateness = () => ({ submitted_at: null }) }) {
  const c = assignmentCourse(course, graded);
  graded.assignments = await lab.courseAssignments(c);
  for (const s of graded.students) {
    if (!s.in_gradebook) continue;
    const scores = Object.fromEntries(s.result.exercises.map((e) => [e.id, e.score]));
    s.assignments = await lab.assignmentScores(c, { scores, ...lateness(s) });
  }
  return graded;
}
