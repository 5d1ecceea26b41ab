#pragma once
#include "report/comparison_input.h"
#include "report/report_input.h"

#include <string>

namespace ctwin::app {

/// Writes the report tables as CSV files (RFC 4180 quoting but LF line ends, header line, '.' decimals,
/// numbers in the shortest form that reads back to the same double) into `directory`, which is created when
/// missing:
///  - summary.csv       key,value,unit: every figure, keys and values exactly those of cost::resultsToJson
///                      (`evaluate --json`), units in display terms (MW, USD, USD/yr, ...)
///  - capex.csv         category,label,cost_usd,share,per_gpu_usd
///  - depreciation.csv  asset_class,capex_usd,life_years,method,year,depreciation_usd (long form)
///  - cashflow.csv      year,capex_usd,revenue_usd,opex_usd,tax_usd,net_cash_flow_usd,cumulative_usd,
///                      present_value_usd
///  - assumptions.csv   key,base,low,high,unit,estimate,design_override,source
///  - rules.csv         severity,rule,entity,message
///  - sensitivity.csv   output,base,assumption,input_low,input_high,output_at_low,output_at_high,swing
///  (given)
///  - uncertainty.csv   output,p10,p50,p90,mean (when given)
/// Every cell goes through cost::csvField: text that could start a spreadsheet formula (=, +, -, @, TAB, CR)
/// is neutralised with a leading single quote, numbers are written as they are. The folder is replaced as
/// a whole (DirectorySwap): the files are written into a temporary sibling folder that is swapped into
/// place, so a kill leaves the old complete folder or the new one. Throws model::InputError naming the path
/// when the folder cannot be created or written, or when it holds files a CSV report does not write (it is
/// then left as it is); a failed write leaves the folder unchanged (and removes the parent folders it
/// created).
void writeCsvReport(const ReportInput& input, const std::string& directory);

/// Writes comparison.csv (key,label,unit,design,baseline,value,delta_absolute,delta_percent,best,worst; one
/// line per figure and design) and capex.csv (category,design,cost_usd) into `directory`, with the same
/// cell rule and folder swap as writeCsvReport.
void writeComparisonCsv(const ComparisonInput& input, const std::string& directory);

} // namespace ctwin::app
