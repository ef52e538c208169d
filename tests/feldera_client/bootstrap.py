"""Feldera's own example of bootstrapping (its docs' "Modifying a Pipeline While
Preserving its State": grades, a view changed, one over it, one added), with
Feldera's Python client unchanged, against the edge worker: start, ingest,
stop, modify, start(bootstrap_policy=AWAIT_APPROVAL), the diff in
deployment_runtime_status_details as Feldera lists it, approve, the views
recomputed from the kept rows; then a start with REJECT refused. Rows go in
with input_json (the edge has no ad-hoc INSERT); the tables have primary keys
(a table keeps its rows with one). Not part of `npm test` (see README.md).
Usage: python3 tests/feldera_client/bootstrap.py http://127.0.0.1:8787"""
import sys
from decimal import Decimal
from feldera import FelderaClient, PipelineBuilder
from feldera.enums import BootstrapPolicy, PipelineStatus

client = FelderaClient(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8787")

def gen_sql(start_date, end_date):
    return f"""create table students (id bigint not null primary key, name varchar);
create table grades (student_id bigint not null, class varchar not null, grade decimal(5,2), class_date date,
  primary key (student_id, class, class_date));
create view avg_grade as select student_id, class, AVG(grade) as class_avg from grades
where class_date >= date '{start_date}' and class_date <= date '{end_date}' group by student_id, class;
create materialized view avg_grade_enriched as select name as student_name, class, class_avg
from avg_grade join students on avg_grade.student_id = students.id;
"""

pipeline = PipelineBuilder(client, "grades", sql=gen_sql("2025-09-01", "2025-12-15")).create_or_replace()
pipeline.start()
assert pipeline.status() == PipelineStatus.RUNNING, pipeline.status()
pipeline.input_json("students", [{"id": 1, "name": "Alice"}, {"id": 2, "name": "Bob"}], update_format="raw", wait=True)
grades = [(1, 'algebra', 97, '2025-09-15'), (1, 'physics', 89, '2025-11-15'), (2, 'algebra', 85, '2025-10-22'),
          (2, 'physics', 93, '2025-12-05'), (1, 'algebra', 95, '2026-01-15'), (1, 'physics', 87, '2026-03-15'),
          (2, 'algebra', 98, '2026-04-22'), (2, 'physics', 91, '2026-05-05')]
pipeline.input_json("grades", [{"student_id": s, "class": c, "grade": g, "class_date": d} for s, c, g, d in grades], update_format="raw", wait=True)

def rows(sql):
    return list(pipeline.query(sql))

print("before:", rows("SELECT * FROM avg_grade_enriched ORDER BY student_name, class"))
# force=False: a checkpoint first, so the bootstrap starts from the checkpointed state (force=True resumes
# from the last periodic checkpoint and replays the input log after it).
pipeline.stop(force=False)
additional_view = """
create materialized view avg_grade_all_courses as select student_id, avg(class_avg) as avg from avg_grade group by student_id;"""
pipeline.modify(sql=gen_sql("2025-09-01", "2026-06-10") + additional_view)
pipeline.start(bootstrap_policy=BootstrapPolicy.AWAIT_APPROVAL)
assert pipeline.status() == PipelineStatus.AWAITINGAPPROVAL, pipeline.status()
diff = pipeline.deployment_runtime_status_details()
print("diff:", diff)
assert diff["program_diff"]["added_views"] == ["avg_grade_all_courses"], diff
assert diff["program_diff"]["modified_views"] == ["avg_grade", "avg_grade_enriched"], diff
pipeline.approve()
pipeline.wait_for_status(PipelineStatus.RUNNING, timeout=60)
after = rows("SELECT * FROM avg_grade_enriched ORDER BY student_name, class")
print("after:", after)
assert [(r["student_name"], r["class"], Decimal(str(r["class_avg"]))) for r in after] == [
    ("Alice", "algebra", Decimal("96")), ("Alice", "physics", Decimal("88")),
    ("Bob", "algebra", Decimal("91.5")), ("Bob", "physics", Decimal("92"))], after
all_courses = rows("SELECT * FROM avg_grade_all_courses ORDER BY student_id")
print("all courses:", all_courses)
assert [Decimal(str(r["avg"])) for r in all_courses] == [Decimal("92"), Decimal("91.75")], all_courses
pipeline.stop(force=True)
pipeline.modify(sql=gen_sql("2025-09-01", "2026-06-10"))
try:
    pipeline.start(bootstrap_policy=BootstrapPolicy.REJECT)
    raise AssertionError("reject started the pipeline")
except RuntimeError as error:
    print("rejected:", str(error).splitlines()[-3:])
print("OK")
